import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PlatformProvider, type PlatformClient } from '@productgen/platform-client';
import { SIGN_IN_REQUEST_EVENT, type RuntimeConfig } from '@productgen/mf-shared';
import { fakeApiClient, TEST_USER, type RecordedRequest } from '@productgen/mf-shared/test-support';
import { ShellConfigContext } from '../src/chrome/shell-config';
import { TopBar } from '../src/chrome/TopBar';
import { Footer } from '../src/chrome/Footer';

const CONFIG: RuntimeConfig = {
  apiBaseUrl: 'https://api.productgen.test',
  googleClientId: '',
  productName: 'ProductGen',
  devIdentityProvider: true,
  trackingScripts: {},
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

/** "Join with Google" asks the page's sign-in provider (an event), exactly once per click. */
async function expectJoinWithGoogleAsksForSignIn(container: HTMLElement) {
  const requests = jest.fn();
  window.addEventListener(SIGN_IN_REQUEST_EVENT, requests);
  await userEvent.click(within(container).getByRole('button', { name: 'Join with Google' }));
  window.removeEventListener(SIGN_IN_REQUEST_EVENT, requests);
  expect(requests).toHaveBeenCalledTimes(1);
}

/** Signed in as TEST_USER; after a logout the current-user check answers 401. */
function renderSignedIn() {
  const { client, requests } = fakeApiClient(
    { 'GET /auth/me': [{ body: TEST_USER }, { status: 401 }], 'POST /auth/logout': { body: { success: true } } },
    { signedIn: true },
  );
  renderChrome(client);
  return { requests, nav: screen.getByRole('navigation', { name: 'Main' }) };
}

async function expectSignedOut(requests: RecordedRequest[], nav: HTMLElement) {
  await waitFor(() => expect(requests.some((request) => request.path === '/auth/logout')).toBe(true));
  expect(await within(nav).findByRole('link', { name: 'Start Free' })).toBeInTheDocument();
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

    await expectJoinWithGoogleAsksForSignIn(nav);

    await expectFreeToolsMenu();
  });

  it('shows the signed-in items: dashboard, create, credits and the profile menu with logout', async () => {
    const { requests, nav } = renderSignedIn();

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

    await expectSignedOut(requests, nav);

    await expectFreeToolsMenu();
  });
});

/** The phone bar's menu: the button, and the panel it controls once opened. */
async function openCompactMenu() {
  const button = screen.getByRole('button', { name: 'Menu' });
  expect(button).toHaveAttribute('aria-expanded', 'false');
  const panelId = button.getAttribute('aria-controls') ?? '';
  // Closed, the panel is in the page (so aria-controls points at something) but hidden from everyone.
  expect(document.getElementById(panelId)).not.toBeVisible();
  expect(screen.queryByRole('navigation', { name: 'Menu' })).not.toBeInTheDocument();

  await userEvent.click(button);
  expect(button).toHaveAttribute('aria-expanded', 'true');
  const panel = screen.getByRole('navigation', { name: 'Menu' });
  expect(panel).toHaveAttribute('id', panelId);
  return { button, panel };
}

function expectLinks(container: HTMLElement, links: string[][]) {
  for (const [label, href] of links)
    expect(within(container).getByRole('link', { name: label })).toHaveAttribute('href', href);
}

describe('phone top bar menu', () => {
  // Links in the panel are real links; the shell's link interception routes them, jsdom would try to navigate.
  const stopNavigation = (event: MouseEvent) => event.preventDefault();
  beforeEach(() => document.addEventListener('click', stopNavigation));
  afterEach(() => document.removeEventListener('click', stopNavigation));

  it('signed out: Start Free stays in the bar and the menu holds every other item', async () => {
    const { client } = fakeApiClient({ 'GET /auth/me': { status: 401 } });
    renderChrome(client);
    const main = screen.getByRole('navigation', { name: 'Main' });
    const startFree = screen.getAllByRole('link', { name: 'Start Free' }).find((link) => !main.contains(link));
    expect(startFree).toHaveAttribute('href', '/login');

    const { button, panel } = await openCompactMenu();
    expectLinks(panel, [
      ['Pricing', '/pricing'],
      ['Demo', '/#demo'],
      ['Ad Agencies', '/for-ad-agencies'],
      ...FREE_TOOLS,
    ]);
    expect(within(panel).getByRole('group', { name: 'Free Tools' })).toBeInTheDocument();
    expect(within(panel).getByRole('link', { name: 'Pricing' })).toHaveFocus();
    expect(within(panel).queryByRole('link', { name: 'Dashboard' })).not.toBeInTheDocument();

    await expectJoinWithGoogleAsksForSignIn(panel);
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();
  });

  it('signed in: credits stay in the bar and the menu holds dashboard, create, the tools and the account items', async () => {
    const { requests, nav: main } = renderSignedIn();
    const credits = (await screen.findAllByRole('link', { name: '12 credits' })).find((link) => !main.contains(link));
    expect(credits).toHaveAttribute('href', '/pricing');

    const { button, panel } = await openCompactMenu();
    expectLinks(panel, [
      ['Dashboard', '/dashboard'],
      ['Create Photo', '/productgen'],
      ...FREE_TOOLS,
      ['Settings', '/settings'],
      ['Buy Credits', '/pricing'],
    ]);
    expect(within(panel).getByRole('group', { name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Join with Google' })).not.toBeInTheDocument();

    await userEvent.click(within(panel).getByRole('button', { name: 'Logout' }));
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await expectSignedOut(requests, main);
  });

  it('closes on Escape (focus back on the button), on choosing a link, on a tap outside and on tabbing away', async () => {
    const { client } = fakeApiClient({ 'GET /auth/me': { status: 401 } });
    renderChrome(
      client,
      <>
        <TopBar />
        <button type="button">Elsewhere</button>
      </>,
    );

    const { button, panel } = await openCompactMenu();
    await userEvent.keyboard('{Escape}');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();

    await userEvent.click(button);
    await userEvent.click(within(panel).getByRole('link', { name: 'AI Image Upscaler' }));
    expect(button).toHaveAttribute('aria-expanded', 'false');

    await userEvent.click(button);
    await userEvent.click(screen.getByRole('button', { name: 'Elsewhere' }));
    expect(button).toHaveAttribute('aria-expanded', 'false');

    await userEvent.click(button);
    within(panel).getByRole('button', { name: 'Join with Google' }).focus();
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Elsewhere' })).toHaveFocus();
    expect(button).toHaveAttribute('aria-expanded', 'false');

    await userEvent.click(button);
    await userEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('stays open through a routing event that changed nothing (the first page finishing its mount) and closes on a navigation', async () => {
    const { client } = fakeApiClient({ 'GET /auth/me': { status: 401 } });
    renderChrome(client);
    const { button } = await openCompactMenu();

    act(() => void window.dispatchEvent(new CustomEvent('single-spa:routing-event')));
    expect(button).toHaveAttribute('aria-expanded', 'true');

    act(() => {
      window.history.pushState(null, '', '/pricing');
      window.dispatchEvent(new CustomEvent('single-spa:routing-event'));
    });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    window.history.pushState(null, '', '/');
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
