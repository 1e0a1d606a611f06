// One jest run over every workspace. Back-end code runs in node; each browser workspace brings its own jsdom
// project (its jest.config.js, built with jest/browser-project.js). Workspace packages resolve to their TypeScript
// sources through the "@productgen/source" export condition, so tests never need a build first.
const { existsSync, readdirSync } = require('node:fs');
const path = require('node:path');

const workspaceDirs = [
  ...readdirSync(path.join(__dirname, 'packages')).map((name) => path.join(__dirname, 'packages', name)),
  ...readdirSync(__dirname)
    .filter((name) => name === 'shell' || name.startsWith('mfe-'))
    .map((name) => path.join(__dirname, name)),
];
const browserProjects = workspaceDirs.map((dir) => path.join(dir, 'jest.config.js')).filter((file) => existsSync(file));

module.exports = {
  projects: [
    {
      displayName: 'node',
      rootDir: __dirname,
      testEnvironment: 'node',
      // A bound, not a wait: jest's 5-s default failed quick tests (model loads, zip builds) on a 2-core machine at
      // load 15 that pass in well under a second when it is quiet. Slow tests set their own.
      testTimeout: 30_000,
      testEnvironmentOptions: { customExportConditions: ['@productgen/source', 'node', 'require', 'default'] },
      transform: { '^.+\\.(t|j)sx?$': require('./jest/swc-transform') },
      moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
      testMatch: [
        '<rootDir>/packages/*/test/**/*.test.ts',
        '<rootDir>/services/*/test/**/*.test.ts',
        '<rootDir>/tests/integration/**/*.test.ts',
        '<rootDir>/tests/deploy/**/*.test.ts',
        '<rootDir>/tests/resilience/**/*.test.ts',
      ],
      testPathIgnorePatterns: ['/node_modules/', '/dist/'],
    },
    {
      // Real Chromium (Debian's build, driven by playwright-core) against the platform started as `npm start` does.
      displayName: 'e2e',
      rootDir: __dirname,
      testEnvironment: 'node',
      transform: { '^.+\\.(t|j)sx?$': require('./jest/swc-transform') },
      testMatch: ['<rootDir>/tests/e2e/**/*.test.ts'],
    },
    ...browserProjects,
  ],
};
