import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { compileContent, DEFAULT_TOKENS, siteRoutes } from '../content/compile';
import type { DemoSample, SiteIndex } from '../content/schema';
import { prerenderPage } from './render';
import { robotsTxt, sitemapXml } from './seo-files';

// `npm run build -w mfe-marketing`, after webpack and the demo step: validates the content files and writes, into
// dist/, what the web origin and the shell read at run time:
//   routes.json         the routes manifest (paths, titles, descriptions, site URL, demo samples)
//   pages/<slug>.json   each page's content, fetched on client-side navigation
//   prerender/<slug>.json  each page's prerendered head and main HTML
//   sitemap.xml, robots.txt

interface BuildOptions {
  contentDir: string;
  /** The app's dist/ (demo images come from there); MARKETING_OUT_DIR writes elsewhere, e.g. in a test. */
  distDir: string;
  outDir: string;
  siteUrl: string;
  productName: string;
  css: string;
}

function readOptions(): BuildOptions {
  const appDir = path.resolve(__dirname, '..');
  const siteUrl = (process.env.SITE_URL || 'http://localhost:3000').replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+$/.test(siteUrl)) {
    throw new Error(`SITE_URL must be an origin such as https://productgen.example, not "${siteUrl}"`);
  }
  const distDir = path.join(appDir, 'dist');
  return {
    contentDir: process.env.MARKETING_CONTENT_DIR || path.join(appDir, 'content'),
    distDir,
    outDir: process.env.MARKETING_OUT_DIR || distDir,
    siteUrl,
    productName: process.env.PRODUCT_NAME || DEFAULT_TOKENS.product,
    css: readFileSync(path.join(__dirname, 'site.css'), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\s*\n\s*/g, ''),
  };
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value)}\n`);
}

async function main(): Promise<void> {
  const options = readOptions();
  const pages = compileContent(options.contentDir, {
    product: options.productName,
    supportEmail: process.env.SUPPORT_EMAIL || DEFAULT_TOKENS.supportEmail,
  });
  const samples = JSON.parse(readFileSync(path.join(options.distDir, 'demo', 'samples.json'), 'utf8')) as DemoSample[];
  const index: SiteIndex = { siteUrl: options.siteUrl, routes: siteRoutes(pages), samples };

  writeJson(path.join(options.outDir, 'routes.json'), index);
  for (const page of pages) {
    writeJson(path.join(options.outDir, 'pages', `${page.slug}.json`), page);
    const route = index.routes.find((candidate) => candidate.slug === page.slug)!;
    const prerendered = await prerenderPage({ route, page, index, productName: options.productName, css: options.css });
    writeJson(path.join(options.outDir, 'prerender', `${page.slug}.json`), prerendered);
  }
  writeFileSync(path.join(options.outDir, 'sitemap.xml'), sitemapXml(options.siteUrl, pages));
  writeFileSync(path.join(options.outDir, 'robots.txt'), robotsTxt(options.siteUrl));
  console.log(`marketing: ${pages.length} pages (${index.routes.length} paths) prerendered for ${options.siteUrl}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
