// Browser-side tests of @productgen/mf-shared (.test.tsx); the node project of the root config runs the
// webpack-config tests (.test.ts).
const { browserJestProject } = require('./jest');

module.exports = browserJestProject('mf-shared', __dirname, { testMatch: ['<rootDir>/test/**/*.test.tsx'] });
