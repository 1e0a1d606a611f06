const fs = require('node:fs');
const path = require('node:path');
const { makeWebpackConfig } = require('@productgen/mf-shared/webpack');

// The design tokens and the page frame are inlined into index.html: a prerendered page is styled before any
// JavaScript runs, so it paints at once and nothing moves when the scripts arrive.
const criticalCss = [path.join(__dirname, '../packages/ui-kit/src/tokens.css'), path.join(__dirname, 'src/global.css')]
  .map((file) => fs.readFileSync(file, 'utf8'))
  .join('\n')
  .replace(/\/\*[\s\S]*?\*\//g, '')
  .replace(/\s*\n\s*/g, '\n');

module.exports = makeWebpackConfig({
  name: 'shell',
  dir: __dirname,
  port: 3000,
  isHost: true,
  template: path.join(__dirname, 'src/index.html'),
  templateOptions: { criticalCss },
});
