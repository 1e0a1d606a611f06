import {
  findRoute,
  loadPublishedRoutes,
  normalisePath,
  parseRoutesManifest,
  routeOwner,
  ROUTE_TABLE,
  type MfeName,
} from '@productgen/mf-shared';

// SPEC §2's route table with the owners DESIGN §1 assigns, written out independently of ROUTE_TABLE so a
// wrong or missing entry there fails here. The marketing and legal routes come from mfe-marketing's content
// files through its published routes manifest (its own tests check them against SPEC §2); a sample stands in.
const MARKETING_MANIFEST = {
  routes: [
    { path: '/', title: 'Home', description: 'The landing page.' },
    { path: '/terms', title: 'Terms', description: 'The terms.' },
    { path: '/amazon-product-photography', title: 'Amazon', description: 'An alias.' },
  ],
};
const TABLE = [...ROUTE_TABLE, ...parseRoutesManifest('mfe_marketing', MARKETING_MANIFEST)];

const EXPECTED_OWNERS: Record<string, MfeName> = {
  '/': 'mfe_marketing',
  '/terms': 'mfe_marketing',
  '/amazon-product-photography': 'mfe_marketing',
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
    expect(routeOwner(path, TABLE)).toBe(owner);
  });

  it('has exactly the routes of the table, each once', () => {
    const tablePaths = TABLE.map((entry) => entry.path.replace(':bulkJobUuid', '5f0c2a7e-1b2c-4d5e-8f90-123456789abc'));
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
    expect(routeOwner(path, TABLE)).toBeNull();
    expect(findRoute(path, TABLE)).toBeNull();
  });

  it('gives every page a title and a description', () => {
    for (const entry of ROUTE_TABLE) {
      expect(entry.title.trim()).not.toBe('');
      expect(entry.description.trim().length).toBeGreaterThan(20);
      expect(`${entry.title} ${entry.description}`).not.toMatch(/coming soon|todo|placeholder/i);
    }
  });
});

describe('published routes', () => {
  it("reads the marketing routes from routes.json beside the registry's mf-manifest.json", async () => {
    const requested: string[] = [];
    const fetchImpl = (async (url: string) => {
      requested.push(url);
      return { ok: true, status: 200, json: async () => MARKETING_MANIFEST };
    }) as unknown as typeof fetch;
    const routes = await loadPublishedRoutes(
      { mfe_marketing: '/mfe/marketing/2.0.0/mf-manifest.json', mfe_create: '/mfe/create/1.0.0/mf-manifest.json' },
      fetchImpl,
      'http://shop.test/pricing',
    );
    expect(requested).toEqual(['http://shop.test/mfe/marketing/2.0.0/routes.json']);
    expect(routes.map((route) => [route.path, route.owner])).toEqual([
      ['/', 'mfe_marketing'],
      ['/terms', 'mfe_marketing'],
      ['/amazon-product-photography', 'mfe_marketing'],
    ]);
  });

  it('leaves the routes out when the manifest cannot be read, so the rest of the site still works', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    const fetchImpl = (async () => ({ ok: false, status: 404 })) as unknown as typeof fetch;
    await expect(
      loadPublishedRoutes({ mfe_marketing: '/mfe/marketing/2.0.0/mf-manifest.json' }, fetchImpl, 'http://shop.test/'),
    ).resolves.toEqual([]);
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it('rejects a manifest entry without a path', () => {
    expect(() => parseRoutesManifest('mfe_marketing', { routes: [{ title: 'No path' }] })).toThrow(/needs a path/);
  });
});
