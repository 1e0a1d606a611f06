import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { parseRoutesManifest, ROUTE_TABLE, type RouteEntry } from '../../packages/mf-shared/src/routes';
import { collectPageProblems, isReactElement, launchBrowser, moveMouse, waitForReactElement } from '../support/browser';
import { signInBrowserContext } from '../support/platform-ui';
import {
  repoRoot,
  signInWithDevIdentity,
  startPlatformProcess,
  type PlatformProcess,
} from '@productgen/test-kit/platform-process';

// The public site as search engines and visitors get it, against the platform as `npm start` runs it: every route
// of the route table in Chromium with JavaScript off (the raw HTML carries the page), then with JavaScript on
// (the marketing pages hydrate without an error and their calls to action follow the sign-in state), and the
// landing page's demo widget.
jest.setTimeout(180_000);

/** The browser globals the in-page callbacks read (type-checked with the node project's types, which have no DOM). */
interface PageGlobals {
  document: {
    getElementById(id: string): object | null;
    querySelector(selector: string): object | null;
    querySelectorAll(selector: string): ArrayLike<{ naturalWidth: number; complete: boolean }>;
  };
}

/** The in-page recorder of the demo's stage texts. */
interface StageRecorder {
  e2eStages: string[];
  MutationObserver: new (callback: () => void) => { observe(target: object, options: object): void };
  document: {
    querySelector(selector: string): { getAttribute(name: string): string | null } | null;
    getElementById(id: string): { textContent: string | null } | null;
  };
}

let dataDir: string;
let platform: PlatformProcess;
let browser: Browser;
/** The static routes plus the ones the marketing build published (its content files), as the shell reads them. */
let routes: RouteEntry[];
let siteUrl: string;

const SAMPLE_JOB = '0b7f6a52-3c1e-4f6d-9a8b-2d4c6e8f0a1b';

function samplePath(route: RouteEntry): string {
  return route.path.replace(':bulkJobUuid', SAMPLE_JOB);
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'productgen-marketing-'));
  platform = await startPlatformProcess({ dataDir });
  const registry = (await (await fetch(`${platform.webUrl}/remotes.json`)).json()) as Record<string, string>;
  const manifestUrl = new URL('routes.json', new URL(registry.mfe_marketing!, platform.webUrl));
  const manifest = (await (await fetch(manifestUrl)).json()) as { siteUrl: string };
  siteUrl = manifest.siteUrl;
  routes = [...ROUTE_TABLE, ...parseRoutesManifest('mfe_marketing', manifest)];
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await platform?.stop('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

async function headOf(page: Page) {
  const attribute = (selector: string, name: string) => page.locator(selector).first().getAttribute(name);
  return {
    title: await page.title(),
    description: await attribute('meta[name="description"]', 'content'),
    canonical: await attribute('link[rel="canonical"]', 'href'),
    ogTitle: await attribute('meta[property="og:title"]', 'content'),
    ogUrl: await attribute('meta[property="og:url"]', 'content'),
    twitterCard: await attribute('meta[name="twitter:card"]', 'content'),
    jsonLd: JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent()) ?? 'null'),
  };
}

describe('with JavaScript off', () => {
  test('every route answers with its own head, and every marketing page with its heading and text', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const titles = new Map<string, string>();
    for (const route of routes) {
      const pathname = samplePath(route);
      const response = await page.goto(`${platform.webUrl}${pathname}`);
      expect({ pathname, status: response?.status() }).toEqual({ pathname, status: 200 });
      const head = await headOf(page);
      expect(head.title).toBe(`${route.title} | ProductGen`);
      expect(head.description).toBe(route.description);
      expect(head.canonical).toMatch(new RegExp(`^${siteUrl}/`));
      expect(head.ogTitle).toBe(head.title);
      expect(head.ogUrl).toBe(head.canonical);
      expect(head.twitterCard).toBeTruthy();
      const webPage = head.jsonLd['@graph']?.[0] ?? head.jsonLd;
      expect(webPage).toMatchObject({ '@type': 'WebPage', publisher: { '@type': 'Organization', name: 'ProductGen' } });
      // An alias shares its page's title; every other page has its own.
      const canonicalPath = new URL(head.canonical!).pathname;
      if (titles.has(head.title)) expect(titles.get(head.title)).toBe(canonicalPath);
      titles.set(head.title, canonicalPath);

      if (route.owner === 'mfe_marketing') {
        const heading = page.locator('#pg-app-mfe_marketing h1');
        expect(await heading.count()).toBe(1);
        const text = (await page.locator('#pg-app-mfe_marketing').textContent()) ?? '';
        expect(text.length).toBeGreaterThan(route.path === '/login' ? 150 : 600);
      }
    }
    expect(titles.size).toBe(routes.length - 1);
    await context.close();
  });

  test('a FAQ page carries FAQPage data, an unknown path answers 404, sitemap and robots are generated', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${platform.webUrl}/professional-amazon-product-photography`);
    const { jsonLd } = await headOf(page);
    expect(jsonLd['@graph'][1]).toMatchObject({ '@type': 'FAQPage', mainEntity: expect.any(Array) });

    const missing = await page.goto(`${platform.webUrl}/no-such-page`);
    expect(missing?.status()).toBe(404);
    expect(await page.title()).toBe('Page not found | ProductGen');
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    await context.close();

    const sitemap = await (await fetch(`${platform.webUrl}/sitemap.xml`)).text();
    const listed = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
    expect(listed).toEqual(expect.arrayContaining(['/', '/privacy', '/fashion-product-photos', '/pricing']));
    expect(listed).not.toEqual(expect.arrayContaining(['/dashboard']));
    expect(listed).not.toContain('/amazon-product-photography');
    const robots = await (await fetch(`${platform.webUrl}/robots.txt`)).text();
    expect(robots).toContain(`Sitemap: ${siteUrl}/sitemap.xml`);
    expect(robots).toContain('Disallow: /dashboard');
  });

  test('pages and scripts are sent compressed, hashed scripts cached for good', async () => {
    const answer = await fetch(`${platform.webUrl}/`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(answer.headers.get('content-encoding')).toBe('br');
    const html = await answer.text();
    // The shell's loader names its entry script (index.html starts it once a prerendered page has painted).
    const script = html.match(/["=](\/main\.[0-9a-f]+\.js)/)?.[1];
    expect(script).toBeTruthy();
    const scriptAnswer = await fetch(`${platform.webUrl}${script}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(scriptAnswer.headers.get('content-encoding')).toBe('gzip');
    expect(scriptAnswer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const gzipText = await scriptAnswer.text();

    // A browser that takes brotli gets the build's own brotli copy (highest level, made once at build time): the
    // same script, a smaller answer than on-the-fly compression at its fast level makes.
    const brotliAnswer = await fetch(`${platform.webUrl}${script}`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(brotliAnswer.headers.get('content-encoding')).toBe('br');
    expect(brotliAnswer.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(brotliAnswer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(brotliAnswer.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(await brotliAnswer.text()).toBe(gzipText);
    const copy = await readFile(path.join(repoRoot, 'shell', 'dist', `${script!.slice(1)}.br`));
    expect(copy.length).toBeLessThan(
      brotliCompressSync(Buffer.from(gzipText), { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } }).length,
    );
  });
});

/** A visitor's first input, then the wait until React has hydrated the marketing page's heading. */
async function waitForHydration(page: Page): Promise<void> {
  await moveMouse(page);
  await waitForReactElement(page, '#pg-app-mfe_marketing h1');
}

describe('with JavaScript on', () => {
  test('every marketing page hydrates its prerendered markup without an error or a warning', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = collectPageProblems(page, [{ url: `${platform.apiUrl}/auth/me`, status: 401 }]);
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(`${page.url()}: ${message.text()}`);
    });
    for (const route of routes.filter((candidate) => candidate.owner === 'mfe_marketing')) {
      await page.goto(`${platform.webUrl}${route.path}`);
      await waitForHydration(page);
      // The prerendered heading is the one on screen: hydration kept the markup instead of rendering it again.
      expect(await page.locator('#pg-app-mfe_marketing h1').count()).toBe(1);
    }
    expect(problems()).toEqual([]);
    expect(warnings).toEqual([]);
    await context.close();
  });

  test('a visitor who touches nothing still gets the app: the platform starts once the page is left alone', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = collectPageProblems(page, [{ url: `${platform.apiUrl}/auth/me`, status: 401 }]);
    await page.goto(`${platform.webUrl}/fashion-product-photos`);
    // No input at all: at load the prerendered page is all there is (the platform waits for input or idle) …
    expect(await isReactElement(page, '#pg-app-mfe_marketing h1')).toBe(false);
    // … and the idle start mounts it without the visitor doing anything.
    await waitForReactElement(page, '#pg-app-mfe_marketing h1');
    expect(problems()).toEqual([]);
    await context.close();
  });

  test('calls to action lead visitors to /login and signed-in sellers to /productgen', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${platform.webUrl}/fashion-product-photos`);
    await waitForHydration(page);
    const main = page.locator('#pg-app-mfe_marketing');
    await main.getByRole('link', { name: 'Get Started Free' }).first().waitFor();
    expect(
      await main
        .getByRole('link', { name: 'Get Started Free' })
        .evaluateAll((links) => links.map((link) => link.getAttribute('href'))),
    ).toEqual(['/login', '/login']);

    const { session_key: sessionKey } = await signInWithDevIdentity(platform.apiUrl, {
      email: 'marketing.e2e@example.com',
      given_name: 'Grace',
      family_name: 'Hopper',
    });
    await signInBrowserContext(context, platform.apiUrl, sessionKey);
    const problems = collectPageProblems(page);
    for (const [pathname, label] of [
      ['/fashion-product-photos', 'Create now'],
      ['/for-ad-agencies', 'Try Batch Create Now'],
      ['/', 'Create now'],
    ] as const) {
      await page.goto(`${platform.webUrl}${pathname}`);
      await waitForHydration(page);
      const links = main.getByRole('link', { name: label });
      await links.first().waitFor();
      expect(await links.evaluateAll((found) => found.map((link) => link.getAttribute('href')))).toEqual(
        Array((await links.count()) as number).fill('/productgen'),
      );
      expect(await main.getByRole('link', { name: 'Get Started Free' }).count()).toBe(0);
    }
    expect(await main.getByRole('button', { name: 'Join with Google' }).count()).toBe(0);
    expect(problems()).toEqual([]);
    await context.close();
  });
});

// SPEC §2 "Demo widget" and §9 "Demo": a visitor picks a sample photo, presses Create, watches the stages and
// gets 5 studio results, then resets.
describe('the landing page demo', () => {
  test('from a sample pick to Done! with the stage texts and 5 results, then Reset', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = collectPageProblems(page, [{ url: `${platform.apiUrl}/auth/me`, status: 401 }]);
    await page.goto(`${platform.webUrl}/#demo`);
    // The prerendered widget answers clicks once React has hydrated it.
    await waitForHydration(page);
    const demo = page.locator('#demo');
    const create = demo.getByRole('button', { name: 'Create', exact: true });
    await create.waitFor();
    expect(await create.isDisabled()).toBe(true);

    await demo.getByRole('button', { name: 'Pick a sample photo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pick a sample photo' });
    const samples = dialog.getByRole('listitem');
    await samples.first().waitFor();
    expect(await samples.count()).toBe(5);
    // Visitors are offered sign-in in the modal.
    expect(await dialog.getByRole('button', { name: 'Join with Google' }).count()).toBe(1);
    await dialog.getByRole('button', { name: 'acoustic guitar' }).click();
    await dialog.waitFor({ state: 'detached' });
    await demo.getByAltText('Phone photo: acoustic guitar').waitFor();

    // Every stage text the widget shows, recorded in the page as it changes (a stage lasts 600 ms).
    await page.evaluate(() => {
      const globals = globalThis as unknown as StageRecorder;
      globals.e2eStages = [];
      const record = () => {
        const label = globals.document.querySelector('#demo [role="progressbar"]')?.getAttribute('aria-labelledby');
        const text = label ? globals.document.getElementById(label)?.textContent : null;
        if (text && globals.e2eStages.at(-1) !== text) globals.e2eStages.push(text);
      };
      new globals.MutationObserver(record).observe(globals.document.querySelector('#demo')!, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    });
    await create.click();
    await demo.getByRole('button', { name: 'Working...' }).waitFor();
    await demo.getByRole('button', { name: 'Done!' }).waitFor();
    // The four stages of SPEC §2, in order, while the progress grew by 20 every 600 ms.
    expect(await page.evaluate(() => (globalThis as unknown as StageRecorder).e2eStages)).toEqual([
      'uploading photo',
      'analyzing product',
      'making magic',
      'finalizing',
    ]);
    const results = demo.getByRole('list', { name: 'Results' }).getByRole('button');
    expect(await results.count()).toBe(5);
    // The results are the studio engine's images of this sample, loaded in full.
    await page.waitForFunction(() =>
      Array.from((globalThis as unknown as PageGlobals).document.querySelectorAll('#demo img')).every(
        (image) => image.complete && image.naturalWidth > 0,
      ),
    );
    const sources = await results
      .locator('img')
      .evaluateAll((images) => images.map((image) => image.getAttribute('src')));
    expect(new Set(sources).size).toBe(5);
    for (const source of sources) expect(source).toMatch(/\/demo\/guitar-result-\d\.webp$/);

    await results.nth(2).click();
    expect(await results.nth(2).getAttribute('aria-pressed')).toBe('true');
    expect(await demo.getByAltText('Studio photo made from the acoustic guitar').getAttribute('src')).toBe(sources[2]);

    await demo.getByRole('link', { name: 'Reset' }).click();
    await demo.getByRole('button', { name: 'Create', exact: true }).waitFor();
    expect(await demo.getByRole('list', { name: 'Results' }).count()).toBe(0);
    expect(await demo.getByRole('button', { name: 'Pick a sample photo' }).count()).toBe(1);
    expect(problems()).toEqual([]);
    await context.close();
  });
});
