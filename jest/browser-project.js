// The jest project of every browser workspace (shell, microfrontends, front-end packages): jsdom, the one swc
// transform, workspace packages from their TypeScript sources, CSS Modules as identity maps, image imports as a
// string stub, Testing Library matchers. Each workspace's jest.config.js is `require(...)(__dirname)`.
const path = require('node:path');

/** @param {string} dir the workspace folder (pass __dirname) */
module.exports = function browserProject(dir) {
  // Under packages/, plain .test.ts files belong to the root config's node project; elsewhere (shell, mfe-*) the
  // browser project is the only one, so it takes them too.
  const inPackages = path.basename(path.dirname(dir)) === 'packages';
  const extensions = inPackages ? ['tsx'] : ['ts', 'tsx'];
  return {
    displayName: path.basename(dir),
    rootDir: dir,
    testEnvironment: 'jsdom',
    testEnvironmentOptions: { customExportConditions: ['@productgen/source', 'browser', 'require', 'default'] },
    transform: { '^.+\\.(t|j)sx?$': require('./swc-transform') },
    moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
    moduleNameMapper: {
      '\\.css$': 'identity-obj-proxy',
      '\\.(png|jpe?g|gif|webp|svg)$': require.resolve('./file-stub.js'),
    },
    setupFiles: [require.resolve('./jsdom-polyfills.js')],
    setupFilesAfterEnv: ['@testing-library/jest-dom', require.resolve('./testing-library-setup.js')],
    testTimeout: 30_000, // see testing-library-setup.js
    testMatch: extensions.flatMap((extension) => [
      `<rootDir>/test/**/*.test.${extension}`,
      `<rootDir>/src/**/*.test.${extension}`,
    ]),
    testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  };
};
