const { makeWebpackConfig } = require('@productgen/mf-shared/webpack');

module.exports = makeWebpackConfig({
  name: 'mfe_tools',
  dir: __dirname,
  port: 3004,
  exposes: { './app': './src/app.tsx' },
});
