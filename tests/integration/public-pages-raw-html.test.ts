import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { packageTiers } from '../../packages/contracts/src/packages';
import { findMicrofrontendBuilds, versionedPath } from '../../packages/devstack/src/web';
import { ROUTE_TABLE } from '../../packages/mf-shared/src/routes';
import { repoRoot } from '@productgen/test-kit/platform-process';
import { standaloneWebApp } from '../support/web-origin';

// What a crawler that runs no JavaScript gets from the built web origin: every public page (each marketing content
// file's own path and the other apps' public routes, /pricing and the free tools) answers with its whole text and
// its structured data in the raw HTML; an alias answers 301 with its page's own path. The web origin is embedded
// mode's, serving the built shell and every built microfrontend exactly as `npm start` publishes them; distributed
// mode's shell host builds the same documents (packages/web-host page-documents.ts, tested there too).
jest.setTimeout(60_000);

/** Fewer words than this, and a page is a title with little around it (what the pages were before). */
const MIN_WORDS = 150;

interface SiteRoute {
  path: string;
  canonicalPath: string;
}

interface JsonLdNode {
  '@type': string;
  mainEntity?: Array<{ name: string; acceptedAnswer: { text: string } }>;
  offers?: { price: string };
}

let webRoot: string;
let server: Server;
let origin: string;
let siteRoutes: SiteRoute[];

beforeAll(async () => {
  const shellIndex = path.join(repoRoot, 'shell', 'dist', 'index.html');
  if (!existsSync(shellIndex))
    throw new Error(`${shellIndex} is missing: run \`npm run build\` first (npm test does).`);
  const builds = await findMicrofrontendBuilds(repoRoot);
  expect(builds.map((build) => build.remoteName)).toEqual(expect.arrayContaining(['mfe_marketing', 'mfe_tools']));
  // Published as `npm start` does, linked rather than copied (the tools' build holds its models).
  webRoot = await mkdtemp(path.join(tmpdir(), 'productgen-raw-html-'));
  const registry: Record<string, string> = {};
  for (const build of builds) {
    const folder = path.join(webRoot, 'mfe', build.shortName, build.version);
    await mkdir(path.dirname(folder), { recursive: true });
    await symlink(build.distDir, folder, 'dir');
    registry[build.remoteName] = `${versionedPath(build.shortName, build.version)}mf-manifest.json`;
  }
  await writeFile(path.join(webRoot, 'remotes.json'), JSON.stringify(registry));
  server = standaloneWebApp(webRoot).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const manifestUrl = new URL('routes.json', new URL(registry.mfe_marketing!, origin));
  siteRoutes = ((await (await fetch(manifestUrl)).json()) as { routes: SiteRoute[] }).routes;
});

afterAll(async () => {
  if (server) await new Promise((resolve) => server.close(resolve));
  if (webRoot) await rm(webRoot, { recursive: true, force: true });
});

function decodeEntities(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, code: string) => {
    if (code.startsWith('#x') || code.startsWith('#X')) return String.fromCodePoint(Number.parseInt(code.slice(2), 16));
    if (code.startsWith('#')) return String.fromCodePoint(Number.parseInt(code.slice(1), 10));
    return named[code.toLowerCase()] ?? entity;
  });
}

/** The text a reader of the raw HTML sees: the body without scripts, styles and the no-JavaScript notice. */
function visibleText(html: string): string {
  const body = html.slice(html.indexOf('<body'));
  const withoutCode = body.replace(/<(script|style|noscript|template)\b[\s\S]*?<\/\1>/gi, ' ');
  return decodeEntities(withoutCode.replace(/<[^>]+>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

function wordCount(text: string): number {
  return text.split(' ').filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}

/** Every node of every JSON-LD block (a block is one node or an @graph of them). */
function jsonLdNodes(html: string): JsonLdNode[] {
  const blocks = [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)];
  return blocks.flatMap(([, json]) => {
    const data = JSON.parse(json!) as JsonLdNode & { '@graph'?: JsonLdNode[] };
    return data['@graph'] ?? [data];
  });
}

/** The public pages: the marketing pages' own paths and the route table's public routes (SPEC §2). */
function publicPaths(): string[] {
  const marketing = siteRoutes.filter((route) => route.canonicalPath === route.path).map((route) => route.path);
  const others = ROUTE_TABLE.filter((entry) => entry.indexable).map((entry) => entry.path);
  return [...marketing, ...others];
}

/** What a page's structured data must contain beyond its WebPage node. */
function requiredTypes(pagePath: string): string[] {
  const owner = ROUTE_TABLE.find((entry) => entry.path === pagePath)?.owner;
  if (owner === 'mfe_tools') return ['SoftwareApplication', 'FAQPage'];
  if (pagePath === '/pricing') return ['FAQPage'];
  return [];
}

test('every public page has its text (at least 150 words) and its JSON-LD in the raw HTML', async () => {
  const paths = publicPaths();
  // The list is the one the sitemap publishes, so no public page escapes the check.
  const sitemap = await (await fetch(`${origin}/sitemap.xml`)).text();
  const listed = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
  expect([...listed].sort()).toEqual([...paths].sort());

  const problems: string[] = [];
  const words: Record<string, number> = {};
  for (const pagePath of paths) {
    const response = await fetch(`${origin}${pagePath}`, { redirect: 'manual' });
    if (response.status !== 200) {
      problems.push(`${pagePath}: HTTP ${response.status}`);
      continue;
    }
    const html = await response.text();
    const text = visibleText(html);
    words[pagePath] = wordCount(text);
    if (words[pagePath]! < MIN_WORDS) problems.push(`${pagePath}: ${words[pagePath]} words of visible text`);

    const nodes = jsonLdNodes(html);
    const types = nodes.map((node) => node['@type']);
    for (const type of ['WebPage', ...requiredTypes(pagePath)]) {
      if (!types.includes(type)) problems.push(`${pagePath}: no ${type} JSON-LD`);
    }
    // Structured data describes what the page shows: every FAQ question and answer is in the text.
    for (const question of nodes.flatMap((node) => node.mainEntity ?? [])) {
      if (!text.includes(question.name) || !text.includes(question.acceptedAnswer.text)) {
        problems.push(`${pagePath}: FAQ "${question.name}" is in the JSON-LD but not on the page`);
      }
    }
  }
  console.log(`visible words per public page:\n${JSON.stringify(words, null, 1)}`);
  expect(problems).toEqual([]);
});

test('a free tool page shows its steps, the privacy note and a before/after sample the web origin serves', async () => {
  for (const entry of ROUTE_TABLE.filter((candidate) => candidate.owner === 'mfe_tools')) {
    const html = await (await fetch(`${origin}${entry.path}`)).text();
    const text = visibleText(html);
    // The heading and lead the tool app shows when it mounts (so nothing moves), inside the intro it replaces.
    expect(html).toContain(`<section id="pg-page-intro"><h1>${entry.title}</h1>`);
    expect(text).toMatch(/runs in your browser; nothing is uploaded/i);
    expect(html).toMatch(/<ol[^>]*>(<li>[^<]+<\/li>){3,}<\/ol>/);
    const images = [...html.matchAll(/<img src="([^"]+)"/g)].map((match) => match[1]!);
    expect(images.filter((src) => src.startsWith('/mfe/tools/'))).toHaveLength(2);
    for (const src of images) {
      const image = await fetch(`${origin}${src}`);
      expect({ src, status: image.status, type: image.headers.get('content-type') }).toEqual({
        src,
        status: 200,
        type: 'image/webp',
      });
    }
    const application = jsonLdNodes(html).find((node) => node['@type'] === 'SoftwareApplication');
    expect(application?.offers?.price).toBe('0');
  }
});

test('the pricing page shows every package billing sells, with its price and images', async () => {
  const text = visibleText(await (await fetch(`${origin}/pricing`)).text());
  for (const tier of packageTiers) {
    expect(text).toContain(`${tier.name} ${tier.price}`);
    expect(text).toContain(`${tier.images} images`);
  }
  expect(text).toContain('Most popular');
});

test('an alias answers 301 with its page’s own path, keeping the query', async () => {
  const aliases = siteRoutes.filter((route) => route.canonicalPath !== route.path);
  expect(aliases.map((route) => route.path)).toContain('/amazon-product-photography');
  for (const alias of aliases) {
    const response = await fetch(`${origin}${alias.path}?ref=partner`, { redirect: 'manual' });
    expect({ path: alias.path, status: response.status, location: response.headers.get('location') }).toEqual({
      path: alias.path,
      status: 301,
      location: `${alias.canonicalPath}?ref=partner`,
    });
  }
});
