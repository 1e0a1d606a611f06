import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Express, Response } from 'express';
import { describePageHead, PAGE_JSON_LD_ID } from '@productgen/mf-shared/page-meta';
import { CONTENT_ROUTED_REMOTES, findRoute, normalisePath, ROUTE_TABLE } from '@productgen/mf-shared/routes';
import { setIsolationHeaders } from './headers';
import { cspNonceOf } from './security-headers';

/**
 * The HTML document of a page path, for both web origins (embedded mode's web server and distributed mode's shell
 * host): the shell's current index.html with the page's own head and, for a page a content-routed app (marketing)
 * prerendered, its markup in <main>. The prerendered parts live in that app's published folder
 * (prerender/<slug>.json, named by its routes.json), so the document always pairs the current shell build with the
 * current marketing build: deploying either one never leaves stale script tags behind. Another app's public page
 * (/pricing, the tools) gets its intro, and the text marketing prerendered for it (routes.json `appPages`) when
 * there is one. An alias answers 301 to its page's own path. Unknown paths get the shell (which shows its
 * not-found page) with status 404.
 */

interface SiteRoute {
  path: string;
  slug: string;
  /** The page's own path when this entry is an alias. */
  canonicalPath?: string;
}

interface RoutesManifest {
  siteUrl: string;
  routes: SiteRoute[];
  /** Other apps' public routes with a prerendered text (the tools, /pricing). */
  appPages?: SiteRoute[];
}

interface PrerenderedPage {
  head: string;
  main: string;
}

export interface PageDocument {
  status: number;
  html: string;
  /** A redirect's target path (status 301). */
  location?: string;
}

/** Where a web origin reads what it assembles pages from: a local folder or the microfrontend hosts. */
export interface PageSources {
  /** The shell's index.html, or null while the shell is not built. */
  readShellIndex(): Promise<string | null>;
  /** The microfrontend registry (remote name → versioned mf-manifest.json URL). */
  readRegistry(): Promise<Record<string, string>>;
  /** A published microfrontend file by its URL path (/mfe/<name>/<version>/routes.json), or null if absent. */
  readPublishedFile(urlPath: string): Promise<string | null>;
}

// The shell's default head and empty <main> (the build's HTML minifier may drop attribute quotes).
const DEFAULT_TITLE = /<title>[\s\S]*?<\/title>/;
const DEFAULT_HEAD_TAGS = /<meta name="?description"?[^>]*>|<link rel="?canonical"?[^>]*>/g;
const EMPTY_MAIN = /<main id="?pg-main"?><\/main>/;
/** The prerendered intro of a public page that is not prerendered whole (shell/src/start.tsx removes it). */
export const PAGE_INTRO_ID = 'pg-page-intro';
/** Stands for the app's published folder in its prerendered markup (see mfe-marketing site-data.ts). */
const ASSET_BASE_TOKEN = /__MARKETING_BASE__\//g;
/** Stands for another microfrontend's published folder, e.g. __MFE_BASE__/mfe_tools/ (a tool's sample images). */
const OTHER_APP_BASE_TOKEN = /__MFE_BASE__\/(mfe_[a-z]+)\//g;
/** The start of a script element (the build's minifier writes `<script>` and `<script src=…>`). */
const SCRIPT_TAG = /<script(?=[\s>])/gi;

function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A public page's prerendered intro: the route table's heading and lead, then the page's text (if any). */
function introOf(entry: { title: string; description: string }, text: string): string {
  const heading = `<h1>${escapeHtml(entry.title)}</h1><p>${escapeHtml(entry.description)}</p>`;
  return `<section id="${PAGE_INTRO_ID}">${heading}${text}</section>`;
}

/** A text file, or null if it does not exist. */
export async function readFileOrNull(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** The URL path of a remote's published version (/mfe/<name>/<version>/), from its registry entry. */
export function publishedFolder(manifestUrl: string): string | null {
  const urlPath = path.posix.dirname(new URL(manifestUrl, 'http://web.invalid').pathname) + '/';
  return urlPath.startsWith('/mfe/') ? urlPath : null;
}

export function createPageDocuments(sources: PageSources, productName: string) {
  async function readJson<T>(urlPath: string): Promise<T | null> {
    const text = await sources.readPublishedFile(urlPath);
    return text === null ? null : (JSON.parse(text) as T);
  }

  /** The content-routed apps' published folders with their routes manifests, and the registry they came from. */
  async function contentApps() {
    const registry = await sources.readRegistry();
    const apps = [];
    for (const name of CONTENT_ROUTED_REMOTES) {
      const urlPath = registry[name] ? publishedFolder(registry[name]) : null;
      const manifest = urlPath ? await readJson<RoutesManifest>(`${urlPath}routes.json`) : null;
      if (urlPath && manifest) apps.push({ urlPath, manifest });
    }
    return { registry, apps };
  }

  /** Prerendered markup with the asset folders the registry publishes in place of its tokens. */
  function withAssetFolders(html: string, appFolder: string, registry: Record<string, string>): string {
    return html.replace(ASSET_BASE_TOKEN, appFolder).replace(OTHER_APP_BASE_TOKEN, (token, remote: string) => {
      const entry = Object.hasOwn(registry, remote) ? registry[remote] : undefined;
      return (entry && publishedFolder(entry)) ?? token;
    });
  }

  /** The head the page's own meta gives, for pages that are not prerendered (pricing, the tools, not found). */
  function headOf(meta: { title: string; description: string; path: string }, siteUrl: string, noindex: boolean) {
    const head = describePageHead(meta, productName, siteUrl);
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

  /**
   * The page's document, or null while the shell is not built. `nonce` (the answer's CSP nonce) goes on the shell's
   * own inline scripts only, before any page content is added, so nothing a page brings can borrow it.
   */
  async function render(pathname: string, nonce?: string): Promise<PageDocument | null> {
    const template = await sources.readShellIndex();
    if (template === null) return null;
    const shell = nonce ? template.replace(SCRIPT_TAG, () => `<script nonce="${escapeHtml(nonce)}"`) : template;
    const pagePath = normalisePath(pathname);
    const { registry, apps } = await contentApps();
    const siteUrl = apps[0]?.manifest.siteUrl ?? 'http://localhost';
    const withMain = (html: string, main: string) =>
      html.replace(EMPTY_MAIN, () => `<main id="pg-main">${main}</main>`);
    for (const app of apps) {
      const route = app.manifest.routes.find((candidate) => candidate.path === pagePath);
      if (!route) continue;
      // An alias is the same page at another address: send everyone (and every link's ranking) to its own path.
      if (route.canonicalPath && route.canonicalPath !== route.path) {
        return { status: 301, html: '', location: route.canonicalPath };
      }
      const page = await readJson<PrerenderedPage>(`${app.urlPath}prerender/${route.slug}.json`);
      if (!page) break;
      const html = withMain(withHead(shell, page.head), page.main);
      return { status: 200, html: withAssetFolders(html, app.urlPath, registry) };
    }
    const entry = findRoute(pagePath, ROUTE_TABLE);
    if (entry) {
      if (!entry.indexable) {
        const meta = { title: entry.title, description: entry.description, path: pagePath };
        return { status: 200, html: withHead(shell, headOf(meta, siteUrl, true)) };
      }
      // A public page's intro (its heading and lead, as mf-shared's PageIntro renders them) is in the HTML, so
      // it reads and paints before its microfrontend loads, followed by the text marketing prerendered for the
      // page (what the tool does, its steps, a sample, the FAQ; the packages) with that text's head and JSON-LD.
      // The shell removes the whole intro when the app mounts; the app shows the same heading and lead in place.
      for (const app of apps) {
        const text = app.manifest.appPages?.find((candidate) => candidate.path === pagePath);
        const page = text ? await readJson<PrerenderedPage>(`${app.urlPath}prerender/${text.slug}.json`) : null;
        if (!page) continue;
        const intro = introOf(entry, page.main);
        return {
          status: 200,
          html: withAssetFolders(withMain(withHead(shell, page.head), intro), app.urlPath, registry),
        };
      }
      const meta = { title: entry.title, description: entry.description, path: pagePath };
      return { status: 200, html: withMain(withHead(shell, headOf(meta, siteUrl, false)), introOf(entry, '')) };
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
    for (const app of (await contentApps()).apps) {
      const text = await sources.readPublishedFile(`${app.urlPath}${name}`);
      if (text !== null) return text;
    }
    return null;
  }

  return { render, siteFile };
}

export interface PageRouteOptions {
  /** Page paths served cross-origin isolated (the tool pages). */
  isolatedPaths: readonly string[];
  /** The answer while the shell is not built. */
  notBuiltMessage: string;
}

/**
 * Mounts /sitemap.xml, /robots.txt and every page path (a path without a dot) on a web origin. Each page is the
 * shell's single-page app with the page's own head (and, for a prerendered page, its markup); the shell decides
 * between a microfrontend and its not-found page, and unknown paths answer 404.
 */
export function servePageDocuments(app: Express, sources: PageSources, productName: string, options: PageRouteOptions) {
  const pages = createPageDocuments(sources, productName);
  for (const name of ['sitemap.xml', 'robots.txt'] as const) {
    app.get(`/${name}`, async (_req, res, next) => {
      try {
        const text = await pages.siteFile(name);
        if (text === null) res.status(404).type('text').send('Not Found');
        else res.type(name.endsWith('.xml') ? 'application/xml' : 'text/plain').send(text);
      } catch (error) {
        next(error);
      }
    });
  }
  app.get(/^[^.]*$/, async (req, res: Response, next) => {
    // The free tools run threaded WASM inference, which needs a cross-origin isolated document.
    setIsolationHeaders(res, req.path, options.isolatedPaths);
    try {
      const page = await pages.render(req.path, cspNonceOf(res));
      if (!page) {
        res.status(503).type('text').send(options.notBuiltMessage);
        return;
      }
      if (page.location) {
        // The query (campaign tags, a referral code) goes along to the page's own address.
        const { search } = new URL(req.originalUrl, 'http://web.invalid');
        res.redirect(page.status, `${page.location}${search}`);
        return;
      }
      res.status(page.status).setHeader('Cache-Control', 'no-cache');
      res.type('html').send(page.html);
    } catch (error) {
      next(error);
    }
  });
}
