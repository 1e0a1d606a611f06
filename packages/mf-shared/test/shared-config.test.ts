import { makeSharedConfig, packageNameOf, SINGLETONS } from '../webpack/shared';

const DEPENDENCIES = {
  '@productgen/platform-client': '0.1.0',
  react: '^19.3.1',
  'react-dom': '^19.3.1',
  'react-router': '^7.18.5',
  'single-spa': '^6.0.3',
};

describe('module-federation shared config', () => {
  it('makes every shared module a non-eager singleton with the range from package.json', () => {
    const shared = makeSharedConfig({ name: 'app', dependencies: DEPENDENCIES });
    expect(Object.keys(shared).sort()).toEqual([
      '@productgen/platform-client',
      'react',
      'react-dom',
      'react-dom/client',
      'react-router',
      'react/jsx-runtime',
      'single-spa',
    ]);
    expect(shared['react/jsx-runtime']).toEqual({ singleton: true, requiredVersion: '^19.3.1' });
    expect(shared['react-dom/client']).toEqual({ singleton: true, requiredVersion: '^19.3.1' });
    expect(shared['@productgen/platform-client']).toEqual({ singleton: true, requiredVersion: '0.1.0' });
    for (const options of Object.values(shared)) expect(options).not.toHaveProperty('eager');
  });

  it('refuses an app that does not declare a singleton', () => {
    const { 'react-router': _omitted, ...withoutRouter } = DEPENDENCIES;
    expect(() => makeSharedConfig({ name: '@productgen/mfe-x', dependencies: withoutRouter })).toThrow(
      '@productgen/mfe-x: package.json must list "react-router" in dependencies (shared singleton "react-router")',
    );
  });

  it('maps subpath requests to their package', () => {
    expect(packageNameOf('react-dom/client')).toBe('react-dom');
    expect(packageNameOf('@productgen/platform-client')).toBe('@productgen/platform-client');
    expect(SINGLETONS).toContain('single-spa');
  });
});
