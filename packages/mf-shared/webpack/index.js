'use strict';
// The one webpack + module-federation configuration of the shell and every microfrontend (DESIGN §3).
// Each app's webpack.config.js is a single call to makeWebpackConfig, so the federation rules
// (singletons, share strategy, async startup, manifest, hashed chunks) cannot drift between apps.

const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const CompressionPlugin = require('compression-webpack-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { SINGLETONS, makeSharedConfig } = require('./shared');

/**
 * Transpiles TypeScript/TSX (our sources and the workspace packages' sources) with swc, React automatic runtime.
 * The repository's .swcrc compiles Node code to CommonJS; it is ignored here so webpack receives ES modules and
 * can tree-shake and concatenate them (CommonJS output kept every ui-kit component in every bundle).
 */
function swcRule() {
  return {
    test: /\.[cm]?tsx?$/,
    exclude: /node_modules/,
    use: {
      loader: require.resolve('swc-loader'),
      options: {
        swcrc: false,
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
 * CSS source maps are off unless asked for: style-loader would ship them inside the JavaScript bundles.
 */
function cssLoader(name, { sourceMap = false } = {}) {
  return {
    loader: require.resolve('css-loader'),
    options: {
      sourceMap,
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
function cssRule(name, mode) {
  return {
    test: /\.css$/,
    use: [
      {
        loader: require.resolve('style-loader'),
        // The attribute lets an app detach its own style tags when single-spa unmounts it (see scopeStyles).
        options: { attributes: { 'data-mfe-styles': name } },
      },
      cssLoader(name, { sourceMap: mode !== 'production' }),
    ],
  };
}

/**
 * Entry-chunk filename with a content hash. webpack 5.111 computes runtime-module hashes before chunk content
 * hashes exist, and the federation runtime module resolves the entry filename then (only to learn its folder
 * depth), which throws on `[contenthash]` (module-federation/core#5077). Until the hash is known the same
 * name without the hash answers that question; every emitted file still carries its hash.
 */
/**
 * react-router 7 exports only its development build (remix-run/react-router#12532: dev warnings, larger); a
 * production bundle takes the production build that ships beside it, same API.
 */
function productionAliases() {
  const developmentEntry = require.resolve('react-router', { paths: [__dirname] });
  return { 'react-router$': path.join(developmentEntry, '../../production/index.mjs') };
}

/**
 * One module-federation runtime per page: the shell provides its runtime core to the remotes, whose production
 * builds leave theirs out (about 10 KB compressed each). A remote therefore runs only under a shell built with
 * the same @module-federation version, which the one config here guarantees; `npm start` of a remote (the dev
 * server, the app alone on its page) keeps its own runtime.
 */
function federationRuntime(isHost, mode) {
  if (isHost) return { provideExternalRuntime: true };
  return mode === 'production' ? { externalRuntime: true } : {};
}

/**
 * `<file>.br` beside every built script, style sheet and manifest: brotli at its highest quality, made once here
 * because the web origins can only afford a fast level per request (packages/web-host serveStaticFiles).
 */
function brotliCopies() {
  return new CompressionPlugin({
    filename: '[path][base].br',
    algorithm: 'brotliCompress',
    test: /\.(js|css|json)$/,
    compressionOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY } },
    threshold: 1024,
    minRatio: 0.9,
  });
}

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
        alias: mode === 'production' ? productionAliases() : {},
        // Workspace packages resolve to their TypeScript sources: no package build needed before an app build.
        conditionNames: ['@productgen/source', 'webpack', mode, 'browser', 'import', 'module', 'require', 'default'],
      },
      module: {
        rules: [swcRule(), cssRule(name, mode), { test: /\.(png|jpe?g|gif|webp|svg)$/i, type: 'asset/resource' }],
      },
      plugins: [
        new ModuleFederationPlugin({
          name,
          ...(isHost ? {} : { filename: 'remoteEntry.js', exposes }),
          shared: makeSharedConfig(packageJson),
          shareStrategy: 'loaded-first',
          manifest: true,
          dts: false,
          experiments: {
            asyncStartup: true,
            // Browser-only builds leave out the runtime's Node script loader; a remote loads no remotes itself.
            optimization: isHost ? { target: 'web' } : { target: 'web', disableRemote: true },
            ...federationRuntime(isHost, mode),
          },
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
        ...(mode === 'production' ? [brotliCopies()] : []),
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
