const { browserJestProject } = require('@productgen/mf-shared/jest');

module.exports = browserJestProject('mfe-tools', __dirname);
