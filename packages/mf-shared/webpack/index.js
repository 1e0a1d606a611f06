'use strict';
// The one webpack + module-federation configuration of the shell and every microfrontend (DESIGN §3).
// Each app's webpack.config.js is a single call to makeWebpackConfig, so the federation rules
// (singletons, share strategy, async startup, manifest, hashed chunks) cannot drift between apps.

const fs = require('node:fs');
const path = require('node:path');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { SINGLETONS, makeSharedConfig } = require('./shared');

/** Transpiles TypeScript/TSX (our sources and the workspace packages' sources) with swc, React automatic runtime. */
function swcRule() {
  return {
    test: /\.[cm]?tsx?$/,
    exclude: /node_modules/,
    use: {
      loader: require.resolve('swc-loader'),
      options: {
        jsc: {
          parser: { syntax: 'typescript', tsx: true },
          target: 'es2022',
          transform: { react: { runtime: 'automatic' } },
        },
      },
    },
  };
}

/**
 * css-loader for an app: `*.module.css` become CSS Modules (default-import friendly) whose class names start with
 * the app's name. A prerender build of the same sources uses the same options, so its class names match.
 */
function cssLoader(name) {
  return {
    loader: require.resolve('css-loader'),
    options: {
      modules: {
        auto: true,
        namedExport: false,
        exportLocalsConvention: 'as-is',
        localIdentName: `${name}__[name]__[local]--[hash:base64:5]`,
      },
    },
  };
}

/** CSS is injected by the app's code; other CSS (design tokens) is injected as is. */
function cssRule(name) {
  return {
    test: /\.css$/,
    use: [
      {
        loader: require.resolve('style-loader'),
        // The attribute lets an app detach its own style tags when single-spa unmounts it (see scopeStyles).
        options: { attributes: { 'data-mfe-styles': name } },
      },
      cssLoader(name),
    ],
  };
}

/**
 * Entry-chunk filename with a content hash. webpack 5.111 computes runtime-module hashes before chunk content
 * hashes exist, and the federation runtime module resolves the entry filename then (only to learn its folder
 * depth), which throws on `[contenthash]` (module-federation/core#5077). Until the hash is known the same
 * name without the hash answers that question; every emitted file still carries its hash.
 */
function hashedEntryFilename(pathData) {
  return pathData.chunk && pathData.chunk.contentHash && pathData.chunk.contentHash.javascript
    ? '[name].[contenthash].js'
    : '[name].js';
}

/**
 * @param {object} options
 * @param {string} options.name module-federation container name and output.uniqueName (e.g. "mfe_dashboard")
 * @param {string} options.dir the app's folder (holds package.json, src/, dist/)
 * @param {number} options.port dev-server port of `npm start`
 * @param {Record<string,string>} [options.exposes] remote modules, e.g. { './app': './src/app.tsx' }
 * @param {boolean} [options.isHost] the shell: no exposes, script tags absolute because it serves deep links
 * @param {string} [options.entry] the page entry (default ./src/index.ts for the host, ./src/standalone.tsx for a remote)
 * @param {string} [options.title] the html entry's initial <title>
 * @param {string} [options.template] the html entry's template (default: a bare page with #root)
 * @param {Record<string, unknown>} [options.templateOptions] extra values the template reads as htmlWebpackPlugin.options.*
 * @param {(mode: string) => import('webpack').WebpackPluginInstance[]} [options.extraPlugins]
 * @returns {(env: Record<string, unknown>, argv: { mode?: string }) => import('webpack').Configuration}
 */
function makeWebpackConfig(options) {
  const { name, dir, port, exposes, isHost = false, title = 'ProductGen', extraPlugins, templateOptions } = options;
  const template = options.template ?? path.join(__dirname, 'index.html');
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    throw new Error(
      `makeWebpackConfig: name "${name}" must be a valid JavaScript identifier (module federation container name)`,
    );
  }
  if (!isHost && (!exposes || Object.keys(exposes).length === 0)) {
    throw new Error(`makeWebpackConfig: remote "${name}" must expose at least one module`);
  }
  const packageJson = require(path.join(dir, 'package.json'));
  const entry = options.entry ?? (isHost ? './src/index.ts' : './src/standalone.tsx');

  return (env = {}, argv = {}) => {
    const mode = argv.mode ?? 'production';
    const serving = Boolean(env.WEBPACK_SERVE);
    return {
      mode,
      context: dir,
      devtool: mode === 'production' ? 'source-map' : 'eval-cheap-module-source-map',
      entry: { main: entry },
      output: {
        path: path.join(dir, 'dist'),
        // 'auto': chunks load from wherever the entry was served, so a versioned path needs no rebuild.
        publicPath: 'auto',
        uniqueName: name,
        filename: mode === 'production' ? hashedEntryFilename : '[name].js',
        chunkFilename: mode === 'production' ? '[name].[contenthash].js' : '[name].js',
        assetModuleFilename: 'assets/[name].[contenthash][ext]',
        clean: true,
      },
      resolve: {
        extensions: ['.tsx', '.ts', '.mjs', '.js', '.json'],
        // Workspace packages resolve to their TypeScript sources: no package build needed before an app build.
        conditionNames: ['@productgen/source', 'webpack', mode, 'browser', 'import', 'module', 'require', 'default'],
      },
      module: {
        rules: [swcRule(), cssRule(name), { test: /\.(png|jpe?g|gif|webp|svg)$/i, type: 'asset/resource' }],
      },
      plugins: [
        new ModuleFederationPlugin({
          name,
          ...(isHost ? {} : { filename: 'remoteEntry.js', exposes }),
          shared: makeSharedConfig(packageJson),
          shareStrategy: 'loaded-first',
          manifest: true,
          dts: false,
          experiments: { asyncStartup: true },
        }),
        new HtmlWebpackPlugin({
          ...templateOptions,
          template,
          title,
          // The host answers deep links (/job/abc) with this file, so its script tags must be absolute.
          publicPath: isHost || serving ? '/' : 'auto',
          scriptLoading: 'defer',
          // Only the page entry: the federation container (remoteEntry.js) is for hosts, not for this page.
          chunks: ['main'],
        }),
        ...(extraPlugins ? extraPlugins(mode) : []),
      ],
      performance: { hints: false },
      devServer: {
        port,
        historyApiFallback: true,
        headers: { 'Access-Control-Allow-Origin': '*' },
        // The app's own dev files (the shell's remotes.json) first, then the shared dev runtime-config.json.
        static: [path.join(dir, 'dev-public'), path.join(__dirname, '..', 'dev-public')]
          .filter((directory) => fs.existsSync(directory))
          .map((directory) => ({ directory, watch: false })),
      },
    };
  };
}

module.exports = { makeWebpackConfig, makeSharedConfig, SINGLETONS, swcRule, cssLoader };
