import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describePageHead, PAGE_JSON_LD_ID } from '@productgen/mf-shared/page-meta';
import { CONTENT_ROUTED_REMOTES, findRoute, normalisePath, ROUTE_TABLE } from '@productgen/mf-shared/routes';

/**
 * The HTML document of a page path: the shell's current index.html with the page's own head and, for a page a
 * content-routed app (marketing) prerendered, its markup in <main>. The prerendered parts live in that app's
 * published folder (prerender/<slug>.json, named by its routes.json), so the document always pairs the current
 * shell build with the current marketing build: deploying either one never leaves stale script tags behind.
 * Unknown paths get the shell (which shows its not-found page) with status 404.
 */

interface SiteRoute {
  path: string;
  slug: string;
}

interface RoutesManifest {
  siteUrl: string;
  routes: SiteRoute[];
}

interface PrerenderedPage {
  head: string;
  main: string;
}

export interface PageDocument {
  status: number;
  html: string;
}

// The shell's default head and empty <main> (the build's HTML minifier may drop attribute quotes).
const DEFAULT_TITLE = /<title>[\s\S]*?<\/title>/;
const DEFAULT_HEAD_TAGS = /<meta name="?description"?[^>]*>|<link rel="?canonical"?[^>]*>/g;
const EMPTY_MAIN = /<main id="?pg-main"?><\/main>/;
/** Stands for the app's published folder in its prerendered markup (see mfe-marketing site-data.ts). */
const ASSET_BASE_TOKEN = /__MARKETING_BASE__\//g;

function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The local folder and URL path of a remote's published version, from its registry entry. */
function publishedFolder(webRoot: string, manifestUrl: string): { dir: string; urlPath: string } | null {
  const urlPath = path.posix.dirname(new URL(manifestUrl, 'http://web.invalid').pathname) + '/';
  if (!urlPath.startsWith('/mfe/')) return null;
  return { dir: path.join(webRoot, urlPath), urlPath };
}

async function readJson<T>(file: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

export interface PageDocumentOptions {
  shellIndexFile: string;
  webRoot: string;
  productName: string;
  readRegistry(): Promise<Record<string, string>>;
}

export function createPageDocuments(options: PageDocumentOptions) {
  /** The content-routed apps' published folders with their routes manifests. */
  async function contentApps() {
    const registry = await options.readRegistry();
    const apps = [];
    for (const name of CONTENT_ROUTED_REMOTES) {
      const folder = registry[name] ? publishedFolder(options.webRoot, registry[name]) : null;
      const manifest = folder ? await readJson<RoutesManifest>(path.join(folder.dir, 'routes.json')) : null;
      if (folder && manifest) apps.push({ ...folder, manifest });
    }
    return apps;
  }

  /** The head the page's own meta gives, for pages that are not prerendered (pricing, the tools, not found). */
  function headOf(meta: { title: string; description: string; path: string }, siteUrl: string, noindex: boolean) {
    const head = describePageHead(meta, options.productName, siteUrl);
    return [
      `<title>${escapeHtml(head.title)}</title>`,
      `<link rel="canonical" href="${escapeHtml(head.canonical)}" />`,
      ...head.metas.map(
        ([attribute, key, content]) => `<meta ${attribute}="${key}" content="${escapeHtml(content)}" />`,
      ),
      `<script type="application/ld+json" id="${PAGE_JSON_LD_ID}">${JSON.stringify(head.jsonLd).replace(/</g, '\\u003c')}</script>`,
      noindex ? '<meta name="robots" content="noindex" />' : '',
    ].join('');
  }

  /** The shell page with a page's own head in place of the shell's default title, description and canonical. */
  function withHead(shell: string, head: string): string {
    return shell.replace(DEFAULT_HEAD_TAGS, '').replace(DEFAULT_TITLE, () => head);
  }

  async function render(pathname: string): Promise<PageDocument> {
    const shell = await readFile(options.shellIndexFile, 'utf8');
    const pagePath = normalisePath(pathname);
    const apps = await contentApps();
    const siteUrl = apps[0]?.manifest.siteUrl ?? 'http://localhost';
    for (const app of apps) {
      const route = app.manifest.routes.find((candidate) => candidate.path === pagePath);
      if (!route) continue;
      const page = await readJson<PrerenderedPage>(path.join(app.dir, 'prerender', `${route.slug}.json`));
      if (!page) break;
      const html = withHead(shell, page.head)
        .replace(EMPTY_MAIN, () => `<main id="pg-main">${page.main}</main>`)
        .replace(ASSET_BASE_TOKEN, app.urlPath);
      return { status: 200, html };
    }
    const entry = findRoute(pagePath, ROUTE_TABLE);
    if (entry) {
      const meta = { title: entry.title, description: entry.description, path: pagePath };
      return { status: 200, html: withHead(shell, headOf(meta, siteUrl, !entry.indexable)) };
    }
    const notFound = {
      title: 'Page not found',
      description: 'The page you are looking for does not exist.',
      path: pagePath,
    };
    return { status: 404, html: withHead(shell, headOf(notFound, siteUrl, true)) };
  }

  /** sitemap.xml and robots.txt, which the marketing build generates from its content. */
  async function siteFile(name: 'sitemap.xml' | 'robots.txt'): Promise<string | null> {
    for (const app of await contentApps()) {
      try {
        return await readFile(path.join(app.dir, name), 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    return null;
  }

  return { render, siteFile };
}
