const webpack = require('webpack');
const CopyWebpackPlugin = require('copy-webpack-plugin');
const { makeWebpackConfig } = require('@productgen/mf-shared/webpack');
const { demoPhotoBuildParts } = require('./build/demo-photos');

const { copyPatterns, examples } = demoPhotoBuildParts();

module.exports = makeWebpackConfig({
  name: 'mfe_marketing',
  dir: __dirname,
  port: 3001,
  exposes: { './app': './src/app.tsx' },
  extraPlugins: () => [
    new webpack.DefinePlugin({ __DEMO_PHOTOS__: JSON.stringify(examples) }),
    ...(copyPatterns.length > 0 ? [new CopyWebpackPlugin({ patterns: copyPatterns })] : []),
  ],
});
