'use strict';
// The module-federation `shared` map every app uses. One copy of each of these may exist on the page:
// two Reacts break hooks, two single-spas break navigation, two platform clients split the session, and
// single-spa-react, which the shell and every app mount with, is then downloaded once.
// react-router is not shared: each app makes its own router over the one browser history, and a shared module
// is provided whole, while bundled into each app it keeps only what that app uses (the landing page loaded all
// of react-router, about 60 KB compressed, to use a third of it).

const SINGLETONS = [
  'react',
  'react-dom',
  'react-dom/client',
  'react/jsx-runtime',
  'single-spa',
  'single-spa-react',
  '@productgen/platform-client',
];

/** 'react-dom/client' -> 'react-dom'; '@scope/pkg/sub' -> '@scope/pkg'. */
function packageNameOf(request) {
  const parts = request.split('/');
  return request.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * Singletons with `requiredVersion` from the app's own package.json and no `eager` (async startup loads
 * them). An app must declare every singleton so its required range is explicit, not guessed.
 * @param {{ name?: string, dependencies?: Record<string,string>, devDependencies?: Record<string,string> }} packageJson
 */
function makeSharedConfig(packageJson) {
  const declared = { ...packageJson.devDependencies, ...packageJson.dependencies };
  const shared = {};
  for (const request of SINGLETONS) {
    const packageName = packageNameOf(request);
    const requiredVersion = declared[packageName];
    if (!requiredVersion) {
      throw new Error(
        `${packageJson.name ?? 'app'}: package.json must list "${packageName}" in dependencies (shared singleton "${request}")`,
      );
    }
    shared[request] = { singleton: true, requiredVersion };
  }
  return shared;
}

module.exports = { SINGLETONS, makeSharedConfig, packageNameOf };
