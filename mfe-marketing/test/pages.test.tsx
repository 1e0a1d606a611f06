import { screen, within } from '@testing-library/react';
import { fakeApiClient, renderAt, TEST_USER } from '@productgen/mf-shared/test-support';
import { mfeRouteTree } from '@productgen/mf-shared';
import { routesFromManifest } from '../src/routes';
import { primeSiteFixture } from './site-fixture';

const { index, pages } = primeSiteFixture();
const routes = mfeRouteTree(routesFromManifest(index.routes));
const signedOut = { 'GET /auth/me': { status: 401 } };

describe('content pages', () => {
  it.each(index.routes.filter((route) => route.slug !== 'login').map((route) => [route.path, route] as const))(
    '%s shows its heading, text and meta from its content file',
    async (path, route) => {
      const page = pages.find((candidate) => candidate.slug === route.slug)!;
      const { client } = fakeApiClient(signedOut);
      renderAt(routes, path, client);
      expect(await screen.findByRole('heading', { level: 1, name: page.hero.headline })).toBeInTheDocument();
      expect(screen.getByText(page.hero.lead)).toBeInTheDocument();
      expect(document.title).toBe(`${page.title} | ProductGen`);
      expect(document.head.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(
        `https://productgen.example${page.route === '/' ? '/' : page.route}`,
      );
    },
  );

  it('leads visitors to /login with "Get Started Free" and signed-in sellers to /productgen', async () => {
    const visitor = fakeApiClient(signedOut);
    const { unmount } = renderAt(routes, '/fashion-product-photos', visitor.client);
    const visitorLinks = await screen.findAllByRole('link', { name: 'Get Started Free' });
    expect(visitorLinks.map((link) => link.getAttribute('href'))).toEqual(['/login', '/login']);
    unmount();

    const seller = fakeApiClient({ 'GET /auth/me': { body: TEST_USER } }, { signedIn: true });
    renderAt(routes, '/for-ad-agencies', seller.client);
    const sellerLinks = await screen.findAllByRole('link', { name: 'Try Batch Create Now' });
    expect(sellerLinks.map((link) => link.getAttribute('href'))).toEqual(['/productgen', '/productgen']);
    expect(screen.queryByRole('link', { name: 'Get Started Free' })).not.toBeInTheDocument();
  });

  it('gives the landing page a Google button for visitors and "Create now" for signed-in sellers', async () => {
    const visitor = fakeApiClient(signedOut);
    const { unmount } = renderAt(routes, '/', visitor.client);
    const hero = (await screen.findByRole('heading', { level: 1 })).closest('header')!;
    expect(within(hero).getByRole('button', { name: 'Join with Google' })).toBeInTheDocument();
    expect(within(hero).getByRole('link', { name: 'Get Started Free' })).toHaveAttribute('href', '/login');
    unmount();

    const seller = fakeApiClient({ 'GET /auth/me': { body: TEST_USER } }, { signedIn: true });
    renderAt(routes, '/', seller.client);
    const sellerHero = (await screen.findByRole('heading', { level: 1 })).closest('header')!;
    expect(await within(sellerHero).findByRole('link', { name: 'Create now' })).toHaveAttribute('href', '/productgen');
    expect(within(sellerHero).queryByRole('button', { name: 'Join with Google' })).not.toBeInTheDocument();
  });

  it('links plugin pages out with "Install on Shopify"', async () => {
    const { client } = fakeApiClient(signedOut);
    renderAt(routes, '/shopify-photo-editor', client);
    const links = await screen.findAllByRole('link', { name: 'Install on Shopify' });
    for (const link of links) expect(link.getAttribute('href')).toMatch(/^https:\/\/apps\.shopify\.com\//);
    // One of the six sample sets per view.
    expect(screen.getAllByText(/^Before$/)).toHaveLength(1);
  });

  it('publishes the FAQ of a marketplace page as FAQPage structured data', async () => {
    const { client } = fakeApiClient(signedOut);
    renderAt(routes, '/amazon-product-photography', client);
    await screen.findByRole('heading', { level: 1 });
    const jsonLd = JSON.parse(document.getElementById('pg-page-jsonld')?.textContent ?? '{}');
    expect(jsonLd['@graph'].map((node: { '@type': string }) => node['@type'])).toEqual(['WebPage', 'FAQPage']);
    // The alias names the page's own address as canonical.
    expect(document.head.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(
      'https://productgen.example/professional-amazon-product-photography',
    );
    expect(screen.getAllByText(/^Photo: /).length).toBeGreaterThan(0);
  });
});
