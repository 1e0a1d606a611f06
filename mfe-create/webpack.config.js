const { makeWebpackConfig } = require('@productgen/mf-shared/webpack');

module.exports = makeWebpackConfig({
  name: 'mfe_create',
  dir: __dirname,
  port: 3002,
  exposes: { './app': './src/app.tsx' },
});
