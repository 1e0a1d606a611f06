const { makeWebpackConfig } = require('@productgen/mf-shared/webpack');

module.exports = makeWebpackConfig({
  name: 'mfe_dashboard',
  dir: __dirname,
  port: 3003,
  exposes: { './app': './src/app.tsx' },
});
