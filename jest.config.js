// One jest run over every workspace. Back-end code runs in node; browser code (shell, MFEs) in jsdom.
// Workspace packages resolve to their TypeScript sources through the "@productgen/source" export condition,
// so tests never need a build first.
const swc = ['@swc/jest', { jsc: { parser: { syntax: 'typescript', tsx: true }, target: 'es2022', transform: { react: { runtime: 'automatic' } } }, module: { type: 'commonjs' } }];
const common = {
  transform: { '^.+\\.(t|j)sx?$': swc },
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
};

module.exports = {
  projects: [
    {
      ...common,
      displayName: 'node',
      testEnvironment: 'node',
      testEnvironmentOptions: { customExportConditions: ['@productgen/source', 'node', 'require', 'default'] },
      testMatch: ['<rootDir>/packages/*/test/**/*.test.ts', '<rootDir>/services/*/test/**/*.test.ts', '<rootDir>/tests/integration/**/*.test.ts'],
    },
  ],
};
