import { use } from 'react';
import type { PageContent, SiteImage, SiteIndex } from './schema';

// The content the pages render is data the build publishes next to this app's code (routes.json and
// pages/<slug>.json in the app's versioned folder), never part of the JavaScript. A prerendered document carries
// its page and the index in a JSON script, so hydration renders exactly what the server rendered without a fetch;
// a page reached by client-side navigation is fetched once and kept.

export const SITE_DATA_ELEMENT_ID = 'pg-marketing-data';
/** Stands for this app's published folder in prerendered documents; the web origin puts the real one in. */
export const ASSET_BASE_TOKEN = '__MARKETING_BASE__/';
/**
 * Stands for another microfrontend's published folder (`__MFE_BASE__/<remote>/`) in a prerendered document, e.g.
 * a free tool's before/after sample in mfe-tools' build; the web origin puts the folder its registry names in.
 */
export function otherAppAssetUrl(remote: string, file: string): string {
  return `__MFE_BASE__/${remote}/${file}`;
}

/** What a prerendered document embeds. */
export interface EmbeddedSiteData {
  assetBase: string;
  index: SiteIndex;
  page: PageContent;
}

// webpack's public path of this app at run time (the folder its remoteEntry was loaded from).
declare const __webpack_public_path__: string | undefined;

let assetBase: string | null = null;
let siteIndex: SiteIndex | null = null;
let indexLoading: Promise<SiteIndex> | null = null;
const pages = new Map<string, PageContent>();
const pagesLoading = new Map<string, Promise<PageContent>>();

/** This app's folder as a path when it is served from the page's origin, so server and client agree. */
function publishedFolder(): string {
  const base = typeof __webpack_public_path__ === 'string' && __webpack_public_path__ ? __webpack_public_path__ : '/';
  if (typeof window === 'undefined') return base;
  const url = new URL(base, window.location.href);
  return url.origin === window.location.origin ? url.pathname : url.href;
}

function currentAssetBase(): string {
  return assetBase ?? publishedFolder();
}

export function assetUrl(file: string): string {
  return `${currentAssetBase()}${file}`;
}

export function imageProps(image: SiteImage): { src: string; width: number; height: number } {
  return { src: assetUrl(image.file), width: image.width, height: image.height };
}

/** Server render and tests: the data a page renders with, set directly. */
export function primeSiteData(data: Partial<EmbeddedSiteData>): void {
  if (data.assetBase !== undefined) assetBase = data.assetBase;
  if (data.index) siteIndex = data.index;
  if (data.page) pages.set(data.page.slug, data.page);
}

/** Reads the JSON a prerendered document embeds (once, at bootstrap). */
export function readEmbeddedSiteData(doc: Document = document): boolean {
  const element = doc.getElementById(SITE_DATA_ELEMENT_ID);
  if (!element?.textContent) return false;
  primeSiteData(JSON.parse(element.textContent) as EmbeddedSiteData);
  return true;
}

async function fetchJson<T>(file: string): Promise<T> {
  const response = await fetch(assetUrl(file), { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`Could not load ${file}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

/** The routes and samples: embedded in a prerendered document, else fetched from this app's folder. */
export function loadSiteIndex(): Promise<SiteIndex> {
  if (siteIndex) return Promise.resolve(siteIndex);
  indexLoading ??= fetchJson<SiteIndex>('routes.json').then((index) => (siteIndex = index));
  return indexLoading;
}

export function getSiteIndex(): SiteIndex {
  if (!siteIndex) throw new Error('The marketing site index is not loaded yet');
  return siteIndex;
}

function loadPage(slug: string): Promise<PageContent> {
  let loading = pagesLoading.get(slug);
  if (!loading) {
    loading = fetchJson<PageContent>(`pages/${slug}.json`).then((page) => {
      pages.set(slug, page);
      return page;
    });
    pagesLoading.set(slug, loading);
  }
  return loading;
}

/** A page's content; suspends while a page reached by navigation loads. */
export function usePageContent(slug: string): PageContent {
  return pages.get(slug) ?? use(loadPage(slug));
}
