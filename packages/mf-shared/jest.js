'use strict';
// The jest project of a browser workspace (shell, microfrontends, this package): jsdom, swc with the
// React automatic runtime, workspace packages from their TypeScript sources, CSS Modules as identity maps.

const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      target: 'es2022',
      transform: { react: { runtime: 'automatic' } },
    },
    module: { type: 'commonjs' },
  },
];

/**
 * @param {string} displayName
 * @param {string} rootDir the workspace folder (pass __dirname)
 * @param {{ testMatch?: string[] }} [options]
 */
function browserJestProject(displayName, rootDir, options = {}) {
  return {
    displayName,
    rootDir,
    testEnvironment: 'jsdom',
    testEnvironmentOptions: { customExportConditions: ['@productgen/source', 'browser', 'require', 'default'] },
    transform: { '^.+\\.(t|j)sx?$': swc },
    moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
    moduleNameMapper: {
      '\\.css$': 'identity-obj-proxy',
      '\\.(png|jpe?g|gif|webp|svg)$': require.resolve('./test-support/file-stub.js'),
    },
    setupFiles: [require.resolve('./test-support/jsdom-polyfills.js')],
    setupFilesAfterEnv: ['@testing-library/jest-dom'],
    testMatch: options.testMatch ?? ['<rootDir>/test/**/*.test.ts', '<rootDir>/test/**/*.test.tsx'],
    testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  };
}

module.exports = { browserJestProject };
