const { browserJestProject } = require('@productgen/mf-shared/jest');

module.exports = browserJestProject('mfe-create', __dirname);
