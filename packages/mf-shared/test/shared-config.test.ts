import { makeSharedConfig, packageNameOf, SINGLETONS } from '../webpack/shared';

const DEPENDENCIES = {
  '@productgen/platform-client': '0.1.0',
  react: '^19.3.1',
  'react-dom': '^19.3.1',
  'react-router': '^7.18.5',
  'single-spa': '^6.0.3',
  'single-spa-react': '^6.0.2',
};

describe('module-federation shared config', () => {
  it('makes every shared module a non-eager singleton with the range from package.json', () => {
    const shared = makeSharedConfig({ name: 'app', dependencies: DEPENDENCIES });
    expect(Object.keys(shared).sort()).toEqual([
      '@productgen/platform-client',
      'react',
      'react-dom',
      'react-dom/client',
      'react/jsx-runtime',
      'single-spa',
      'single-spa-react',
    ]);
    // Not shared: each app bundles only the router parts it uses.
    expect(shared).not.toHaveProperty('react-router');
    expect(shared['react/jsx-runtime']).toEqual({ singleton: true, requiredVersion: '^19.3.1' });
    expect(shared['react-dom/client']).toEqual({ singleton: true, requiredVersion: '^19.3.1' });
    expect(shared['@productgen/platform-client']).toEqual({ singleton: true, requiredVersion: '0.1.0' });
    for (const options of Object.values(shared)) expect(options).not.toHaveProperty('eager');
  });

  it('refuses an app that does not declare a singleton', () => {
    const { 'single-spa': _omitted, ...withoutSingleSpa } = DEPENDENCIES;
    expect(() => makeSharedConfig({ name: '@productgen/mfe-x', dependencies: withoutSingleSpa })).toThrow(
      '@productgen/mfe-x: package.json must list "single-spa" in dependencies (shared singleton "single-spa")',
    );
  });

  it('maps subpath requests to their package', () => {
    expect(packageNameOf('react-dom/client')).toBe('react-dom');
    expect(packageNameOf('@productgen/platform-client')).toBe('@productgen/platform-client');
    expect(SINGLETONS).toContain('single-spa');
  });
});
