// The build-time program that validates the content files and prerenders every page (src/site/build-site.tsx),
// bundled for Node from the same sources as the app, with the same CSS Modules class names; the CSS is extracted
// into .site-build/site.css, which every prerendered page inlines.
const path = require('node:path');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const { swcRule, cssLoader } = require('@productgen/mf-shared/webpack');

module.exports = {
  mode: 'production',
  target: 'node',
  context: __dirname,
  entry: { 'build-site': './src/site/build-site.tsx' },
  output: { path: path.join(__dirname, '.site-build'), filename: '[name].js', clean: true },
  resolve: {
    extensions: ['.tsx', '.ts', '.mjs', '.js', '.json'],
    conditionNames: ['@productgen/source', 'node', 'import', 'module', 'require', 'default'],
  },
  module: {
    rules: [swcRule(), { test: /\.css$/, use: [MiniCssExtractPlugin.loader, cssLoader('mfe_marketing')] }],
  },
  plugins: [new MiniCssExtractPlugin({ filename: 'site.css' })],
  optimization: { minimize: false },
  performance: { hints: false },
  stats: 'errors-warnings',
};
