// Every page sets its own title, description, canonical link and social-preview data (SPEC §2). The shell
// records the product name once in <meta property="og:site_name">; each microfrontend bundles its own copy
// of this module, so the DOM (not module state) is the one place they all read it from.

export interface PageMeta {
  /** The page's own title; the product name is appended unless the title already names it. */
  title: string;
  description: string;
  /** The canonical path of the page, e.g. "/pricing" (query and fragment are never canonical). */
  path: string;
  /** og:image / twitter:image, absolute or relative to the site origin. */
  image?: string;
}

const DEFAULT_PRODUCT_NAME = 'ProductGen';
const JSON_LD_ID = 'pg-page-jsonld';

function upsertMeta(attribute: 'name' | 'property', key: string, content: string): void {
  let element = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
  if (!element) {
    element = document.createElement('meta');
    element.setAttribute(attribute, key);
    document.head.appendChild(element);
  }
  element.setAttribute('content', content);
}

function removeMeta(attribute: 'name' | 'property', key: string): void {
  document.head.querySelector(`meta[${attribute}="${key}"]`)?.remove();
}

/** Called by the shell at start with the configured product name (runtime-config.json productName). */
export function setSiteName(productName: string): void {
  upsertMeta('property', 'og:site_name', productName);
  upsertMeta('name', 'application-name', productName);
}

export function getSiteName(): string {
  const content = document.head.querySelector('meta[property="og:site_name"]')?.getAttribute('content');
  return content?.trim() || DEFAULT_PRODUCT_NAME;
}

export function fullTitle(title: string, productName: string): string {
  return title.includes(productName) ? title : `${title} | ${productName}`;
}

function absoluteUrl(path: string): string {
  return new URL(path, window.location.origin).href;
}

export function setPageMeta(meta: PageMeta): void {
  const productName = getSiteName();
  const title = fullTitle(meta.title, productName);
  const canonical = absoluteUrl(meta.path.split(/[?#]/)[0] || '/');
  document.title = title;
  upsertMeta('name', 'description', meta.description);

  let link = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'canonical';
    document.head.appendChild(link);
  }
  link.href = canonical;

  upsertMeta('property', 'og:type', 'website');
  upsertMeta('property', 'og:title', title);
  upsertMeta('property', 'og:description', meta.description);
  upsertMeta('property', 'og:url', canonical);
  upsertMeta('name', 'twitter:card', meta.image ? 'summary_large_image' : 'summary');
  upsertMeta('name', 'twitter:title', title);
  upsertMeta('name', 'twitter:description', meta.description);
  if (meta.image) {
    upsertMeta('property', 'og:image', absoluteUrl(meta.image));
    upsertMeta('name', 'twitter:image', absoluteUrl(meta.image));
  } else {
    removeMeta('property', 'og:image');
    removeMeta('name', 'twitter:image');
  }

  // Structured web-page data naming the product as publisher (SPEC §2).
  let script = document.getElementById(JSON_LD_ID);
  if (!script) {
    script = document.createElement('script');
    script.id = JSON_LD_ID;
    script.setAttribute('type', 'application/ld+json');
    document.head.appendChild(script);
  }
  script.textContent = JSON.stringify({
    '@context': 'https://schema.org',
    '@type': 'WebPage',
    name: title,
    description: meta.description,
    url: canonical,
    publisher: { '@type': 'Organization', name: productName },
  });
}
