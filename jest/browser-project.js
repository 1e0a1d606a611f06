// Jest project for a browser workspace (shell, microfrontends, front-end packages): jsdom, Testing Library matchers,
// CSS Modules as identity maps. Browser tests end in .test.tsx; the root "node" project only takes .test.ts.
const path = require('node:path');

module.exports = function browserProject(dir) {
  return {
    displayName: path.basename(dir),
    rootDir: dir,
    testEnvironment: 'jsdom',
    testEnvironmentOptions: { customExportConditions: ['@productgen/source', 'browser', 'require', 'default'] },
    transform: { '^.+\\.(t|j)sx?$': require('./swc-transform') },
    moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
    moduleNameMapper: { '\\.css$': 'identity-obj-proxy' },
    setupFilesAfterEnv: ['@testing-library/jest-dom'],
    testMatch: ['<rootDir>/test/**/*.test.tsx', '<rootDir>/src/**/*.test.tsx'],
    testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  };
};
