const { browserJestProject } = require('@productgen/mf-shared/jest');

module.exports = browserJestProject('mfe-dashboard', __dirname);
