import { ROUTE_TABLE } from '@productgen/mf-shared';
import { isAppPageKind, type PageContent } from '../content/schema';

/** The other apps' pages behind sign-in (/dashboard, /job/…), never listed for search engines. */
const PRIVATE_PATHS = ROUTE_TABLE.filter((entry) => !entry.indexable).map((entry) => entry.path.replace(/:.*$/, ''));

export function sitemapXml(siteUrl: string, pages: readonly PageContent[]): string {
  // The canonical path of every page, and the other apps' public pages (pricing, the free tools).
  const paths = [
    // (An app page's route is one of those: listed once.)
    ...pages.filter((page) => !isAppPageKind(page.kind)).map((page) => page.route),
    ...ROUTE_TABLE.filter((entry) => entry.indexable).map((entry) => entry.path),
  ];
  const urls = paths.map((routePath) => `  <url><loc>${new URL(routePath, `${siteUrl}/`).href}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

export function robotsTxt(siteUrl: string): string {
  const disallowed = PRIVATE_PATHS.map((privatePath) => `Disallow: ${privatePath}`);
  return ['User-agent: *', 'Allow: /', ...disallowed, `Sitemap: ${siteUrl}/sitemap.xml`, ''].join('\n');
}
