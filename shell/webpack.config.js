const path = require('node:path');
const { makeWebpackConfig } = require('@productgen/mf-shared/webpack');

module.exports = makeWebpackConfig({
  name: 'shell',
  dir: __dirname,
  port: 3000,
  isHost: true,
  template: path.join(__dirname, 'src/index.html'),
});
