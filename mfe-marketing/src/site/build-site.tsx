import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { packageTiers } from '@productgen/contracts';
import { appPages, compileContent, DEFAULT_TOKENS, siteRoutes } from '../content/compile';
import { isAppPageKind, type DemoSample, type PackageTile, type SiteIndex } from '../content/schema';
import { prerenderAppPage, prerenderPage } from './render';
import { robotsTxt, sitemapXml } from './seo-files';

// `npm run build -w mfe-marketing`, after webpack and the demo step: validates the content files and writes, into
// dist/, what the web origin and the shell read at run time:
//   routes.json         the routes manifest (paths, titles, descriptions, site URL, demo samples)
//   pages/<slug>.json   each page's content, fetched on client-side navigation
//   prerender/<slug>.json  each page's prerendered head and main HTML (for another app's public page, the text the
//                          web origin shows until that app mounts)
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
  // The packages as billing sells them: the same contracts data GET /configlist serves the pricing page.
  const packages: PackageTile[] = packageTiers.map((tier) => ({
    packageId: tier.packageId,
    name: tier.name,
    price: tier.price,
    images: tier.images,
    oldImages: tier.oldImages,
    perImagePrice: tier.perImagePrice,
    savingsPercent: tier.savingsPercent,
    watermark: tier.watermark,
    commercialUse: tier.commercialUse,
    mostPopular: tier.mostPopular,
  }));
  const index: SiteIndex = {
    siteUrl: options.siteUrl,
    routes: siteRoutes(pages),
    samples,
    appPages: appPages(pages),
    packages,
  };

  writeJson(path.join(options.outDir, 'routes.json'), index);
  for (const page of pages) {
    const common = { page, index, productName: options.productName, css: options.css };
    let prerendered;
    if (isAppPageKind(page.kind)) {
      const route = { path: page.route, slug: page.slug, title: page.title, description: page.description };
      prerendered = prerenderAppPage({ ...common, route: { ...route, canonicalPath: page.route } });
    } else {
      // Only this app's own pages are fetched on client-side navigation.
      writeJson(path.join(options.outDir, 'pages', `${page.slug}.json`), page);
      const route = index.routes.find((candidate) => candidate.slug === page.slug)!;
      prerendered = await prerenderPage({ ...common, route });
    }
    writeJson(path.join(options.outDir, 'prerender', `${page.slug}.json`), prerendered);
  }
  writeFileSync(path.join(options.outDir, 'sitemap.xml'), sitemapXml(options.siteUrl, pages));
  writeFileSync(path.join(options.outDir, 'robots.txt'), robotsTxt(options.siteUrl));
  console.log(
    `marketing: ${pages.length} pages (${index.routes.length} paths, ${index.appPages?.length ?? 0} other apps' texts) prerendered for ${options.siteUrl}`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
