import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PlatformProvider, type PlatformClient } from '@productgen/platform-client';
import { SIGN_IN_REQUEST_EVENT, type RuntimeConfig } from '@productgen/mf-shared';
import { fakeApiClient, TEST_USER } from '@productgen/mf-shared/test-support';
import { ShellConfigContext } from '../src/chrome/shell-config';
import { TopBar } from '../src/chrome/TopBar';
import { Footer } from '../src/chrome/Footer';

const CONFIG: RuntimeConfig = {
  apiBaseUrl: 'https://api.productgen.test',
  googleClientId: '',
  productName: 'ProductGen',
  devIdentityProvider: true,
};

function renderChrome(client: PlatformClient, ui = <TopBar />) {
  return render(
    <ShellConfigContext.Provider value={CONFIG}>
      <PlatformProvider client={client}>{ui}</PlatformProvider>
    </ShellConfigContext.Provider>,
  );
}

const FREE_TOOLS = [
  ['Image Resizer', '/image-resizer'],
  ['AI Background Remover', '/remove-background-shopify'],
  ['AI Image Upscaler', '/image-upscaler'],
  ['Remove Object from Photo', '/remove-object-from-photo'],
];

async function expectFreeToolsMenu() {
  await userEvent.click(screen.getByRole('button', { name: /Free Tools/ }));
  const menu = screen.getByRole('menu');
  for (const [label, href] of FREE_TOOLS) {
    expect(within(menu).getByRole('menuitem', { name: label })).toHaveAttribute('href', href);
  }
  await userEvent.keyboard('{Escape}');
}

describe('top bar', () => {
  it('shows the signed-out items and asks the sign-in provider on "Join with Google"', async () => {
    const { client } = fakeApiClient({ 'GET /auth/me': { status: 401 } });
    renderChrome(client);
    const nav = screen.getByRole('navigation', { name: 'Main' });

    expect(screen.getByRole('link', { name: 'ProductGen home' })).toHaveAttribute('href', '/');
    expect(within(nav).getByRole('link', { name: 'Pricing' })).toHaveAttribute('href', '/pricing');
    expect(within(nav).getByRole('link', { name: 'Demo' })).toHaveAttribute('href', '/#demo');
    expect(within(nav).getByRole('link', { name: 'Ad Agencies' })).toHaveAttribute('href', '/for-ad-agencies');
    expect(within(nav).getByRole('link', { name: 'Start Free' })).toHaveAttribute('href', '/login');
    expect(within(nav).queryByRole('link', { name: 'Dashboard' })).not.toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Create Photo' })).not.toBeInTheDocument();

    const requests = jest.fn();
    window.addEventListener(SIGN_IN_REQUEST_EVENT, requests);
    await userEvent.click(within(nav).getByRole('button', { name: 'Join with Google' }));
    window.removeEventListener(SIGN_IN_REQUEST_EVENT, requests);
    expect(requests).toHaveBeenCalledTimes(1);

    await expectFreeToolsMenu();
  });

  it('shows the signed-in items: dashboard, create, credits and the profile menu with logout', async () => {
    const { client, requests } = fakeApiClient(
      { 'GET /auth/me': [{ body: TEST_USER }, { status: 401 }], 'POST /auth/logout': { body: { success: true } } },
      { signedIn: true },
    );
    renderChrome(client);
    const nav = screen.getByRole('navigation', { name: 'Main' });

    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(within(nav).getByRole('link', { name: 'Create Photo' })).toHaveAttribute('href', '/productgen');
    expect(await within(nav).findByRole('link', { name: '12 credits' })).toHaveAttribute('href', '/pricing');
    expect(within(nav).queryByRole('link', { name: 'Start Free' })).not.toBeInTheDocument();
    expect(within(nav).queryByRole('button', { name: 'Join with Google' })).not.toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Pricing' })).not.toBeInTheDocument();

    await userEvent.click(within(nav).getByRole('button', { name: /Ada Lovelace/ }));
    const menu = screen.getByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(within(menu).getByRole('menuitem', { name: 'Settings' })).toHaveAttribute('href', '/settings');
    expect(within(menu).getByRole('menuitem', { name: 'Buy Credits' })).toHaveAttribute('href', '/pricing');
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Logout' }));

    await waitFor(() => expect(requests.some((request) => request.path === '/auth/logout')).toBe(true));
    expect(await within(nav).findByRole('link', { name: 'Start Free' })).toBeInTheDocument();

    await expectFreeToolsMenu();
  });
});

describe('footer', () => {
  it('links the legal pages and the tools and carries the product name in the copyright', () => {
    const { client } = fakeApiClient({ 'GET /auth/me': { status: 401 } });
    renderChrome(client, <Footer year={2026} />);
    expect(screen.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms');
    expect(screen.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
    expect(screen.getByRole('link', { name: 'Cookies Policy' })).toHaveAttribute('href', '/cookies-policy');
    for (const [label, href] of FREE_TOOLS)
      expect(screen.getByRole('link', { name: label })).toHaveAttribute('href', href);
    expect(screen.getByText('© 2026 ProductGen. All rights reserved.')).toBeInTheDocument();
  });
});
