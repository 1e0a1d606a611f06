import type { ReactNode } from 'react';
import { renderToStaticMarkup, renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { createPlatformClient, PlatformProvider } from '@productgen/platform-client';
import { appContainerId, describePageHead, mfeRouteTree, PAGE_JSON_LD_ID, RouteTree } from '@productgen/mf-shared';
import type { PageContent, SiteIndex, SiteRoute } from '../content/schema';
import { ASSET_BASE_TOKEN, primeSiteData, SITE_DATA_ELEMENT_ID, type EmbeddedSiteData } from '../content/site-data';
import { pageMetaOf } from '../pages/ContentPage';
import { Article, Section } from '../pages/sections';
import styles from '../pages/Page.module.css';
import { routesFromManifest } from '../routes';

// Build-time only: the HTML of one page exactly as the app's first client render makes it, so the browser can
// hydrate it. The web origin puts `head` into the shell's <head> and `main` into its <main>.

export const APP_NAME = 'mfe_marketing';

const PRELOAD_LINKS = /<link rel="preload"[^>]*\/>/g;

export interface PrerenderedPage {
  head: string;
  main: string;
}

function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** JSON inside <script>: "<" escaped so no text in it can close the element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** The session of a prerendered page: nobody is signed in at build time. */
const buildTimeClient = createPlatformClient({ apiBaseUrl: 'http://127.0.0.1', logger: { warn: () => {} } });

/** An element as the app renders it: signed out, under a router fixed at the page's path. */
function inApp(route: SiteRoute, element: ReactNode): ReactNode {
  return (
    <PlatformProvider client={buildTimeClient}>
      <StaticRouter location={route.path}>{element}</StaticRouter>
    </PlatformProvider>
  );
}

/** The app's tree as its client render makes it (mf-shared's MfeRoot). */
function renderBody(route: SiteRoute, index: SiteIndex): string {
  return renderToString(inApp(route, <RouteTree routes={mfeRouteTree(routesFromManifest(index.routes))} />));
}

/** The page's head: title, canonical, social data, JSON-LD, the app's styles (and preloads before them). */
function headHtmlOf(page: PageContent, index: SiteIndex, productName: string, css: string, preloads: string[] = []) {
  const head = describePageHead(pageMetaOf(page, index.siteUrl), productName, index.siteUrl);
  return [
    `<title>${escapeHtml(head.title)}</title>`,
    `<link rel="canonical" href="${escapeHtml(head.canonical)}" />`,
    ...head.metas.map(
      ([attribute, key, content]) => `<meta ${attribute}="${escapeHtml(key)}" content="${escapeHtml(content)}" />`,
    ),
    `<script type="application/ld+json" id="${PAGE_JSON_LD_ID}">${scriptJson(head.jsonLd)}</script>`,
    ...preloads,
    // The app's styles, so the page is styled before its JavaScript arrives (its code injects the same rules).
    `<style data-mfe-styles="${APP_NAME}">${css}</style>`,
  ].join('');
}

export async function prerenderPage(options: {
  route: SiteRoute;
  page: PageContent;
  index: SiteIndex;
  productName: string;
  css: string;
}): Promise<PrerenderedPage> {
  const { route, page, index, productName, css } = options;
  const data: EmbeddedSiteData = { assetBase: ASSET_BASE_TOKEN, index, page };
  primeSiteData(data);
  const rendered = renderBody(route, index);
  if (!rendered.includes('<h1')) throw new Error(`${route.path} rendered no main heading (did a page suspend?)`);
  // React emits preload links for high-priority images ahead of the markup; they belong in <head>, and the
  // container must hold only what the client's first render makes.
  const preloads = rendered.match(PRELOAD_LINKS) ?? [];
  const body = rendered.replace(PRELOAD_LINKS, '');
  const main =
    `<div id="${appContainerId(APP_NAME)}">${body}</div>` +
    `<script type="application/json" id="${SITE_DATA_ELEMENT_ID}">${scriptJson(data)}</script>`;
  return { head: headHtmlOf(page, index, productName, css, preloads), main };
}

/**
 * Another app's public page (a free tool, /pricing; APP_PAGE_KINDS): its text below the heading and lead, which the
 * web origin puts into the page's intro (the route table's heading and lead, as the app shows them). Static markup,
 * never hydrated: the shell removes the intro when the app mounts and the app renders its own page.
 */
export function prerenderAppPage(options: {
  route: SiteRoute;
  page: PageContent;
  index: SiteIndex;
  productName: string;
  css: string;
}): PrerenderedPage {
  const { route, page, index, productName, css } = options;
  primeSiteData({ assetBase: ASSET_BASE_TOKEN, index, page });
  const articlePlaced = page.sections.some((section) => section.kind === 'article');
  const main = renderToStaticMarkup(
    inApp(
      route,
      // A wrapper, so the intro's own rules for its heading and lead (#pg-page-intro > p) stay off this text.
      <div className={styles.appPageText}>
        {!articlePlaced && page.bodyHtml && <Article html={page.bodyHtml} />}
        {page.sections.map((section, position) => (
          <Section key={`${section.kind}-${position}`} section={section} page={page} />
        ))}
      </div>,
    ),
  );
  return { head: headHtmlOf(page, index, productName, css), main };
}
