'use strict';
// The module-federation `shared` map every app uses. One copy of each of these may exist on the page:
// two Reacts break hooks, two routers or single-spas break navigation, two platform clients split the session.

const SINGLETONS = [
  'react',
  'react-dom',
  'react-dom/client',
  'react/jsx-runtime',
  'react-router',
  'single-spa',
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
