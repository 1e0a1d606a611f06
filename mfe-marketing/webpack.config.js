const { makeWebpackConfig } = require('@productgen/mf-shared/webpack');

// The app's browser code. Its content (routes.json, pages/, prerender/, demo/, sitemap.xml, robots.txt) is data
// the site build writes into dist/ afterwards (see package.json "build").
module.exports = makeWebpackConfig({
  name: 'mfe_marketing',
  dir: __dirname,
  port: 3001,
  exposes: { './app': './src/app.tsx' },
});
