const fs = require('node:fs');
const path = require('node:path');
const { makeWebpackConfig } = require('@productgen/mf-shared/webpack');

// The design tokens and the page frame are inlined into index.html: a prerendered page is styled before any
// JavaScript runs, so it paints at once and nothing moves when the scripts arrive.
// The static chrome's rules (.chrome-build/chrome.css, see below) come with them.
const criticalCss = [
  path.join(__dirname, '../packages/ui-kit/src/tokens.css'),
  path.join(__dirname, 'src/global.css'),
  path.join(__dirname, '.chrome-build/chrome.css'),
]
  .map((file) => fs.readFileSync(file, 'utf8'))
  .join('\n')
  .replace(/\/\*[\s\S]*?\*\//g, '')
  .replace(/\s*\n\s*/g, '\n');

// The web origin prerenders a public page's intro (#pg-page-intro, heading and lead) that mf-shared's PageIntro
// then renders in its app: styled by the same rules, so the swap moves nothing and the first paint is the largest.
const pageIntroCss = fs
  .readFileSync(path.join(__dirname, '../packages/mf-shared/src/route-page.module.css'), 'utf8')
  .replace(/^\.page\b/m, '#pg-page-intro')
  .replace(/^\.title\b/m, '#pg-page-intro > h1')
  .replace(/^\.lead\b/m, '#pg-page-intro > p')
  .replace(/\s*\n\s*/g, '\n');

// The top bar and footer as a signed-out visitor first sees them, rendered by the build-time program of
// webpack.chrome.config.js (package.json "build" runs it first): every page shows its chrome before any script runs,
// and the shell starts the platform later (see the template's loader).
const { renderStaticChrome } = require('./.chrome-build/chrome.js');
const staticChrome = renderStaticChrome();

module.exports = makeWebpackConfig({
  name: 'shell',
  dir: __dirname,
  port: 3000,
  isHost: true,
  template: path.join(__dirname, 'src/index.html'),
  // index.html writes its own script loader (see the template): no script tags injected.
  templateOptions: {
    criticalCss: `${criticalCss}\n${pageIntroCss}`,
    topBarHtml: staticChrome.topBar,
    footerHtml: staticChrome.footer,
    inject: false,
  },
});
