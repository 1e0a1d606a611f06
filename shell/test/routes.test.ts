import { findRoute, normalisePath, routeOwner, ROUTE_TABLE, type MfeName } from '@productgen/mf-shared';

// SPEC §2's route table with the owners DESIGN §1 assigns, written out independently of ROUTE_TABLE so a
// wrong or missing entry there fails here.
const EXPECTED_OWNERS: Record<string, MfeName> = {
  '/': 'mfe_marketing',
  '/login': 'mfe_marketing',
  '/terms': 'mfe_marketing',
  '/privacy': 'mfe_marketing',
  '/cookies-policy': 'mfe_marketing',
  '/for-ad-agencies': 'mfe_marketing',
  '/professional-amazon-product-photography': 'mfe_marketing',
  '/amazon-product-photography': 'mfe_marketing',
  '/professional-shopify-product-photography': 'mfe_marketing',
  '/professional-etsy-product-photography': 'mfe_marketing',
  '/etsy-product-photo-ai': 'mfe_marketing',
  '/shopify-photo-editor': 'mfe_marketing',
  '/ai-product-photo-generator': 'mfe_marketing',
  '/ebay-sellers-product-photos': 'mfe_marketing',
  '/facebook-marketplace-selling-photo-editing': 'mfe_marketing',
  '/product-photo-editing-services': 'mfe_marketing',
  '/product-photo-retouching': 'mfe_marketing',
  '/photo-editing-services-for-ecommerce': 'mfe_marketing',
  '/cost-of-professional-product-photography': 'mfe_marketing',
  '/fashion-product-photos': 'mfe_marketing',
  '/jewelry-product-photos': 'mfe_marketing',
  '/beauty-product-photos': 'mfe_marketing',
  '/home-decor-product-photos': 'mfe_marketing',
  '/electronics-product-photos': 'mfe_marketing',
  '/restaurant-menu-photos': 'mfe_marketing',
  '/fitness-product-photos': 'mfe_marketing',
  '/pet-product-photos': 'mfe_marketing',
  '/baby-product-photos': 'mfe_marketing',
  '/productgen': 'mfe_create',
  '/job/5f0c2a7e-1b2c-4d5e-8f90-123456789abc': 'mfe_create',
  '/dashboard': 'mfe_dashboard',
  '/settings': 'mfe_dashboard',
  '/pricing': 'mfe_dashboard',
  '/image-resizer': 'mfe_tools',
  '/remove-background-shopify': 'mfe_tools',
  '/image-upscaler': 'mfe_tools',
  '/remove-object-from-photo': 'mfe_tools',
};

describe('route -> microfrontend mapping', () => {
  it.each(Object.entries(EXPECTED_OWNERS))('%s belongs to %s', (path, owner) => {
    expect(routeOwner(path)).toBe(owner);
  });

  it('has exactly the routes of the table, each once', () => {
    const tablePaths = ROUTE_TABLE.map((entry) =>
      entry.path.replace(':bulkJobUuid', '5f0c2a7e-1b2c-4d5e-8f90-123456789abc'),
    );
    expect(new Set(tablePaths).size).toBe(tablePaths.length);
    expect([...tablePaths].sort()).toEqual(Object.keys(EXPECTED_OWNERS).sort());
  });

  it('treats a trailing slash as the same page', () => {
    expect(routeOwner('/pricing/')).toBe('mfe_dashboard');
    expect(routeOwner('/productgen')).toBe('mfe_create');
    expect(normalisePath('/')).toBe('/');
    expect(normalisePath('//')).toBe('/');
  });

  it.each([
    '/some-token',
    '/abc123def',
    '/job',
    '/job/',
    '/job/abc/extra',
    '/settings/profile',
    '/Pricing',
    '/dashboard.html',
    '/mfe/dashboard/0.1.0/mf-manifest.json',
  ])('%s has no owner (the shell shows its not-found page)', (path) => {
    expect(routeOwner(path)).toBeNull();
    expect(findRoute(path)).toBeNull();
  });

  it('gives every page a title and a description', () => {
    for (const entry of ROUTE_TABLE) {
      expect(entry.title.trim()).not.toBe('');
      expect(entry.description.trim().length).toBeGreaterThan(20);
      expect(`${entry.title} ${entry.description}`).not.toMatch(/coming soon|todo|placeholder/i);
    }
  });
});
