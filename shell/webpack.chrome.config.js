// The build-time program that renders the static chrome (src/chrome/prerender.tsx), bundled for Node from the same
// sources as the app with the same CSS Modules class names; its CSS is extracted into .chrome-build/chrome.css, which
// index.html inlines (webpack.config.js), so the chrome is styled before the shell's script injects the same rules.
const path = require('node:path');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const { swcRule, cssLoader } = require('@productgen/mf-shared/webpack');

module.exports = {
  mode: 'production',
  target: 'node',
  context: __dirname,
  entry: { chrome: './src/chrome/prerender.tsx' },
  output: {
    path: path.join(__dirname, '.chrome-build'),
    filename: '[name].js',
    library: { type: 'commonjs2' },
    clean: true,
  },
  resolve: {
    extensions: ['.tsx', '.ts', '.mjs', '.js', '.json'],
    conditionNames: ['@productgen/source', 'node', 'import', 'module', 'require', 'default'],
  },
  module: {
    rules: [swcRule(), { test: /\.css$/, use: [MiniCssExtractPlugin.loader, cssLoader('shell')] }],
  },
  plugins: [new MiniCssExtractPlugin({ filename: 'chrome.css' })],
  optimization: { minimize: false },
  performance: { hints: false },
  stats: 'errors-warnings',
};
