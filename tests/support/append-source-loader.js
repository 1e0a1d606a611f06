'use strict';
// A webpack loader that appends the `append` option to a module's source (see build-microfrontend-variant.js).
module.exports = function appendSource(source) {
  const { append } = this.getOptions();
  return `${source}\n${append}\n`;
};
