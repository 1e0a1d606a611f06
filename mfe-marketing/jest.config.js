const browserProject = require('../jest/browser-project')(__dirname);

module.exports = {
  ...browserProject,
  // marked (the content build's Markdown renderer) ships only ES modules; the swc transform makes them CommonJS.
  transformIgnorePatterns: ['/node_modules/(?!marked/)'],
};
