const { createHash } = require('node:crypto');
const { existsSync, readFileSync } = require('node:fs');
const path = require('node:path');
const CopyWebpackPlugin = require('copy-webpack-plugin');
const { DefinePlugin } = require('webpack');
const { makeWebpackConfig } = require('@productgen/mf-shared/webpack');

const { OUTPUTS } = require('./build/prepare-assets');

/** Each model's sha256 (build/prepare-assets.js wrote the files): the browser caches a model under it. */
function modelHashes() {
  const hashes = {};
  for (const [model, file] of Object.entries(OUTPUTS)) {
    const built = path.join(__dirname, '.assets', file);
    if (existsSync(built)) hashes[model] = createHash('sha256').update(readFileSync(built)).digest('hex');
  }
  return hashes;
}

const makeConfig = makeWebpackConfig({
  name: 'mfe_tools',
  dir: __dirname,
  port: 3004,
  exposes: { './app': './src/app.tsx' },
  extraPlugins: () => [
    // Models and before/after samples made by build/prepare-assets.js, served next to this microfrontend's files
    // (src/runtime/assets.ts).
    new CopyWebpackPlugin({
      patterns: [{ from: path.join(__dirname, '.assets'), to: 'tool-assets', noErrorOnMissing: true }],
    }),
    new DefinePlugin({
      'process.env.TOOLS_ASSETS_URL': JSON.stringify(process.env.TOOLS_ASSETS_URL ?? ''),
      'process.env.TOOLS_MODEL_SHA256': JSON.stringify(modelHashes()),
    }),
  ],
});

/**
 * The inference workers are chunks with their own runtime, into which the federation runtime module is also
 * generated; it resolves their file name before content hashes exist (module-federation/core#5077), so their
 * names take the hash only once it is known, as the factory does for the entry.
 */
function hashedChunkFilename(pathData) {
  return pathData.chunk && pathData.chunk.contentHash && pathData.chunk.contentHash.javascript
    ? '[name].[contenthash].js'
    : '[name].js';
}

module.exports = (env, argv) => {
  const config = makeConfig(env, argv);
  if (config.mode === 'production') config.output.chunkFilename = hashedChunkFilename;
  return config;
};
