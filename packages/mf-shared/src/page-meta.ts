/// <reference lib="dom" />
// The web hosts (node projects) type-check this module too: its browser half needs the DOM types.
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
  /** The site's configured origin for canonical links (e.g. https://productgen.example); default: the page's. */
  siteUrl?: string;
  /** Questions and answers the page shows: published as FAQPage structured data too. */
  faq?: ReadonlyArray<{ question: string; answer: string }>;
  /** A free tool the page runs: published as SoftwareApplication structured data (free, in the browser). */
  application?: { name: string; category: string };
}

/** Everything a page puts in <head>, as data: the browser writes it into the DOM, the prerender into HTML. */
export interface PageHead {
  title: string;
  canonical: string;
  /** [attribute, key, content]: <meta name="description" …>, <meta property="og:title" …>, … */
  metas: Array<['name' | 'property', string, string]>;
  jsonLd: Record<string, unknown>;
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

/** The head of a page: title, canonical, description, Open Graph, Twitter and JSON-LD (SPEC §2). */
export function describePageHead(meta: PageMeta, productName: string, pageOrigin: string): PageHead {
  const origin = (meta.siteUrl || pageOrigin).replace(/\/+$/, '');
  const absolute = (path: string) => new URL(path, `${origin}/`).href;
  const title = fullTitle(meta.title, productName);
  const canonical = absolute(meta.path.split(/[?#]/)[0] || '/');
  const image = meta.image ? absolute(meta.image) : null;
  const metas: PageHead['metas'] = [
    ['name', 'description', meta.description],
    ['property', 'og:type', 'website'],
    ['property', 'og:site_name', productName],
    ['property', 'og:title', title],
    ['property', 'og:description', meta.description],
    ['property', 'og:url', canonical],
    ['name', 'twitter:card', image ? 'summary_large_image' : 'summary'],
    ['name', 'twitter:title', title],
    ['name', 'twitter:description', meta.description],
  ];
  if (image) metas.push(['property', 'og:image', image], ['name', 'twitter:image', image]);
  // Structured web-page data naming the product as publisher (SPEC §2), and the FAQ where the page has one.
  const webPage = {
    '@type': 'WebPage',
    name: title,
    description: meta.description,
    url: canonical,
    publisher: { '@type': 'Organization', name: productName, url: absolute('/') },
  };
  const faqPage = meta.faq?.length
    ? {
        '@type': 'FAQPage',
        url: canonical,
        mainEntity: meta.faq.map(({ question, answer }) => ({
          '@type': 'Question',
          name: question,
          acceptedAnswer: { '@type': 'Answer', text: answer },
        })),
      }
    : null;
  const application = meta.application
    ? {
        '@type': 'SoftwareApplication',
        name: meta.application.name,
        applicationCategory: meta.application.category,
        // The free tools run in any modern browser and cost nothing (SPEC §1).
        operatingSystem: 'Any (web browser)',
        url: canonical,
        offers: { '@type': 'Offer', price: '0', priceCurrency: 'USD' },
        publisher: webPage.publisher,
      }
    : null;
  const extras = [faqPage, application].filter((node) => node !== null);
  // The WebPage stays the first node: a page with more data lists them all in one @graph.
  const jsonLd = extras.length
    ? { '@context': 'https://schema.org', '@graph': [webPage, ...extras] }
    : { '@context': 'https://schema.org', ...webPage };
  return { title, canonical, metas, jsonLd };
}

export const PAGE_JSON_LD_ID = JSON_LD_ID;

export function setPageMeta(meta: PageMeta): void {
  const head = describePageHead(meta, getSiteName(), window.location.origin);
  document.title = head.title;
  let link = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'canonical';
    document.head.appendChild(link);
  }
  link.href = head.canonical;

  const written = new Set(head.metas.map(([attribute, key]) => `${attribute}:${key}`));
  for (const [attribute, key, content] of head.metas) upsertMeta(attribute, key, content);
  for (const [attribute, key] of IMAGE_METAS) if (!written.has(`${attribute}:${key}`)) removeMeta(attribute, key);

  let script = document.getElementById(JSON_LD_ID);
  if (!script) {
    script = document.createElement('script');
    script.id = JSON_LD_ID;
    script.setAttribute('type', 'application/ld+json');
    document.head.appendChild(script);
  }
  script.textContent = JSON.stringify(head.jsonLd);
}

const IMAGE_METAS: ReadonlyArray<['name' | 'property', string]> = [
  ['property', 'og:image'],
  ['name', 'twitter:image'],
];
