import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { PlatformProvider, type PlatformClient } from '@productgen/platform-client';
import { fakeApiClient, NEVER, TEST_USER, type Reply } from '@productgen/mf-shared/test-support';
import { MOST_POPULAR_TEXT, PROCESSING_PAYMENT_TEXT, PricingPage, tiersOf } from '../src/pricing/PricingPage';

/** The four tiers exactly as the contracts' packageTiers serve them through GET /configlist. */
const PACKAGES = [
  {
    packageId: 0,
    name: 'Free',
    priceCents: 0,
    price: '$0.00',
    images: 10,
    oldImages: null,
    perImageCents: null,
    perImagePrice: null,
    savingsPercent: null,
    watermark: true,
    commercialUse: true,
    mostPopular: false,
    purchasable: false,
  },
  {
    packageId: 1,
    name: 'Hobbyist',
    priceCents: 99,
    price: '$0.99',
    images: 5,
    oldImages: null,
    perImageCents: 20,
    perImagePrice: '$0.20',
    savingsPercent: null,
    watermark: false,
    commercialUse: true,
    mostPopular: false,
    purchasable: true,
  },
  {
    packageId: 2,
    name: 'Small Business',
    priceCents: 499,
    price: '$4.99',
    images: 50,
    oldImages: 40,
    perImageCents: 10,
    perImagePrice: '$0.10',
    savingsPercent: 50,
    watermark: false,
    commercialUse: true,
    mostPopular: true,
    purchasable: true,
  },
  {
    packageId: 3,
    name: 'Professional Seller',
    priceCents: 999,
    price: '$9.99',
    images: 200,
    oldImages: 100,
    perImageCents: 5,
    perImagePrice: '$0.05',
    savingsPercent: 75,
    watermark: false,
    commercialUse: true,
    mostPopular: false,
    purchasable: true,
  },
];
const CONFIG = { body: { product_name: 'ProductGen', packages: PACKAGES } };

function renderPricing(client: PlatformClient, redirect = jest.fn()) {
  render(
    <PlatformProvider client={client}>
      <MemoryRouter initialEntries={['/pricing']}>
        <Routes>
          <Route path="/pricing" element={<PricingPage redirect={redirect} />} />
          <Route path="/login" element={<h1>Login page</h1>} />
        </Routes>
      </MemoryRouter>
    </PlatformProvider>,
  );
  return redirect;
}

function signedInClient(checkout: Reply | (() => Promise<Reply>)) {
  return fakeApiClient(
    {
      'GET /auth/me': { body: TEST_USER },
      'GET /configlist': CONFIG,
      'POST /payments/create-checkout-session': checkout,
    },
    { signedIn: true },
  );
}

const tile = (name: string) => screen.getByRole('heading', { name }).closest('li') as HTMLElement;

describe('/pricing', () => {
  it('shows four package tiles with prices, per-image price, savings and crossed-out old counts', async () => {
    const { client } = fakeApiClient({ 'GET /auth/me': { status: 401 }, 'GET /configlist': CONFIG });
    renderPricing(client);
    const list = await screen.findByRole('list', { name: 'Credit packages' });
    expect(
      within(list)
        .getAllByRole('heading', { level: 2 })
        .map((heading) => heading.textContent),
    ).toEqual(['Free', 'Hobbyist', 'Small Business', 'Professional Seller']);
    expect(document.title).toBe('Pricing | ProductGen');
    expect(tile('Free')).toHaveTextContent('10 images on signup');
    expect(tile('Free')).toHaveTextContent('Watermarked images');
    expect(tile('Hobbyist')).toHaveTextContent('$0.99');
    expect(tile('Hobbyist')).toHaveTextContent('$0.20 per image');
    const small = tile('Small Business');
    expect(small).toHaveTextContent('$4.99');
    expect(within(small).getByText('40').tagName).toBe('DEL');
    expect(small).toHaveTextContent('50 images');
    expect(small).toHaveTextContent('$0.10 per image');
    expect(small).toHaveTextContent('50% savings');
    const pro = tile('Professional Seller');
    expect(within(pro).getByText('100').tagName).toBe('DEL');
    expect(pro).toHaveTextContent('200 images');
    expect(pro).toHaveTextContent('$0.05 per image');
    expect(pro).toHaveTextContent('75% savings');
    // Only the third tile carries the badge.
    expect(screen.getAllByText(MOST_POPULAR_TEXT)).toHaveLength(1);
    expect(within(small).getByText(MOST_POPULAR_TEXT)).toBeInTheDocument();
  });

  it.each(['Start Free', 'Buy Hobbyist', 'Buy Professional Seller'])(
    'sends a signed-out click on "%s" to /login',
    async (label) => {
      const { client, requests } = fakeApiClient({ 'GET /auth/me': { status: 401 }, 'GET /configlist': CONFIG });
      renderPricing(client);
      const button = await screen.findByRole('button', { name: label });
      expect(button).toBeEnabled();
      await userEvent.click(button);
      expect(await screen.findByRole('heading', { name: 'Login page' })).toBeInTheDocument();
      expect(requests.some((request) => request.path === '/payments/create-checkout-session')).toBe(false);
    },
  );

  it('disables Free when signed in', async () => {
    const { client } = signedInClient(NEVER as never);
    renderPricing(client);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Start Free' })).toBeDisabled());
    expect(screen.getByRole('button', { name: 'Buy Hobbyist' })).toBeEnabled();
  });

  it('shows "Processing payment" and disables every tier while the checkout is being created', async () => {
    const { client, requests } = signedInClient(NEVER as never);
    renderPricing(client);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Start Free' })).toBeDisabled());
    await userEvent.click(screen.getByRole('button', { name: 'Buy Small Business' }));
    expect(await screen.findByText(PROCESSING_PAYMENT_TEXT)).toBeInTheDocument();
    for (const button of screen.getAllByRole('button')) expect(button).toBeDisabled();
    expect(requests.find((request) => request.path === '/payments/create-checkout-session')?.json).toEqual({
      package: 2,
    });
  });

  it('redirects a paid tier to the hosted checkout of the new session', async () => {
    const url = 'http://localhost:8080/dev-checkout/cs_dev_123';
    const { client } = signedInClient({ body: { sessionId: 'cs_dev_123', url } });
    const redirect = renderPricing(client);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Start Free' })).toBeDisabled());
    await userEvent.click(screen.getByRole('button', { name: 'Buy Professional Seller' }));
    await waitFor(() => expect(redirect).toHaveBeenCalledWith(url));
  });

  it('swallows a checkout failure: the overlay clears with no message', async () => {
    const { client } = signedInClient({ status: 502, body: { code: 502, error: 'provider down' } });
    const redirect = renderPricing(client);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Start Free' })).toBeDisabled());
    await userEvent.click(screen.getByRole('button', { name: 'Buy Hobbyist' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy Hobbyist' })).toBeEnabled());
    expect(screen.queryByText(PROCESSING_PAYMENT_TEXT)).not.toBeInTheDocument();
    expect(screen.queryByText(/provider down/)).not.toBeInTheDocument();
    expect(redirect).not.toHaveBeenCalled();
  });

  it('reads only well-formed tiers from the configuration, in package order', () => {
    expect(tiersOf({ packages: [PACKAGES[2], { name: 'broken' }, PACKAGES[0]] }).map((tier) => tier.name)).toEqual([
      'Free',
      'Small Business',
    ]);
    expect(tiersOf({})).toEqual([]);
  });
});
