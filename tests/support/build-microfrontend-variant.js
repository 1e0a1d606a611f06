'use strict';
// Builds a microfrontend workspace with its own webpack config, unchanged except for two things a deployment
// test needs: the output folder (a temp dir, so the repository's dist/ is never touched) and a line of code
// appended to one source module (so the new build is observably different). Runs in its own node process,
// because webpack and its loaders expect a plain Node module system, not jest's.
// Usage: node build-microfrontend-variant.js '{"workspaceDir":…,"outputDir":…,"module":"src/app.tsx","append":"…"}'
const path = require('node:path');

const { workspaceDir, outputDir, module: changedModule, append } = JSON.parse(process.argv[2] ?? '{}');
if (!workspaceDir || !outputDir || !changedModule || typeof append !== 'string') {
  console.error('expected {"workspaceDir","outputDir","module","append"} as the only argument');
  process.exit(2);
}

const webpack = require(require.resolve('webpack', { paths: [workspaceDir] }));
const makeConfig = require(path.join(workspaceDir, 'webpack.config.js'));
const config = makeConfig({}, { mode: 'production' });
config.output.path = outputDir;
// Source maps are not needed to prove a deployment and double the build time.
config.devtool = false;
config.module.rules.push({
  test: path.join(workspaceDir, changedModule),
  enforce: 'pre',
  use: [{ loader: path.join(__dirname, 'append-source-loader.js'), options: { append } }],
});

webpack(config, (error, stats) => {
  if (error || !stats || stats.hasErrors()) {
    console.error(error ?? stats?.toString({ all: false, errors: true }));
    process.exit(1);
  }
  process.exit(0);
});
