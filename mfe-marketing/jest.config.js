const browserProject = require('../jest/browser-project')(__dirname);

module.exports = {
  ...browserProject,
  // marked (the content build's Markdown renderer) ships only ES modules, and sanitize-html's own htmlparser2 and its
  // DOM helpers give jsdom's "browser" condition theirs: the swc transform makes them CommonJS. sanitize-html is
  // listed so that its nested node_modules are not skipped by the pattern.
  transformIgnorePatterns: [
    '/node_modules/(?!(marked|sanitize-html|htmlparser2|domhandler|domutils|dom-serializer|domelementtype|entities)/)',
  ],
};
