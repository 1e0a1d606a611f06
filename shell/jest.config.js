const { browserJestProject } = require('@productgen/mf-shared/jest');

module.exports = browserJestProject('shell', __dirname);
