import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { findMicrofrontendBuilds, publishMicrofrontend } from '../../packages/devstack/src/web';
import { launchBrowser } from '../support/browser';
import { repoRoot } from '@productgen/test-kit/platform-process';
import { LoopbackServers } from '@productgen/test-kit';
import { standaloneWebApp } from '../support/web-origin';

// The layout's analytics and pixel scripts (SPEC §2) in Chromium: with none configured in the runtime config the
// page requests none; with them configured each one is added as an async script once the prerendered landing page
// has loaded. The scripts are served by this test on loopback, never fetched from the internet.
jest.setTimeout(120_000);

/** The browser globals the in-page callbacks read (the node project's types have no DOM). */
interface PageGlobals {
  document: {
    readyState: string;
    querySelectorAll(selector: string): ArrayLike<{ src: string; async: boolean }>;
  };
  e2eTrackingRanAt?: Record<string, string>;
  e2eMounted?: boolean;
}

const servers = new LoopbackServers();
const scriptRequests: string[] = [];
let webRoot: string;
let browser: Browser;
let scriptOrigin: string;

/** The platform's web origin with the given tracking scripts in its runtime config (the API is not needed here). */
function webOrigin(trackingScripts: Record<string, string>): Promise<string> {
  return servers.listen(standaloneWebApp(webRoot, trackingScripts));
}

/**
 * Opens the landing page and waits until the page has loaded and the shell has started (a visitor's first input starts
 * it on a public page) and mounted the page's app.
 */
async function openStartedLandingPage(origin: string): Promise<Page> {
  const page = await browser.newPage();
  await page.addInitScript(() => {
    const scope = globalThis as unknown as PageGlobals & { addEventListener(type: string, listener: () => void): void };
    scope.addEventListener('single-spa:first-mount', () => (scope.e2eMounted = true));
  });
  await page.goto(`${origin}/`, { waitUntil: 'load' });
  await page.mouse.move(5, 5);
  await page.waitForFunction(() => (globalThis as unknown as PageGlobals).e2eMounted === true);
  return page;
}

beforeAll(async () => {
  webRoot = await mkdtemp(path.join(tmpdir(), 'productgen-tracking-'));
  const marketing = (await findMicrofrontendBuilds(repoRoot)).find((build) => build.shortName === 'marketing');
  if (!marketing) throw new Error('mfe-marketing is not built: run `npm run build -w mfe-marketing`');
  await publishMicrofrontend(webRoot, marketing);
  scriptOrigin = await servers.listen((req, res) => {
    scriptRequests.push(req.url ?? '');
    const kind = new URL(req.url ?? '/', 'http://scripts.invalid').searchParams.get('kind');
    res.setHeader('Content-Type', 'text/javascript');
    // Each script records the document state it ran in.
    res.end(
      `(window.e2eTrackingRanAt = window.e2eTrackingRanAt || {})[${JSON.stringify(kind)}] = document.readyState;`,
    );
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await servers.close();
  await rm(webRoot, { recursive: true, force: true });
});

test('with no tracking script configured, none is requested', async () => {
  const page = await openStartedLandingPage(await webOrigin({}));
  const scripts = await page.evaluate(() =>
    Array.from((globalThis as unknown as PageGlobals).document.querySelectorAll('script[src]'), (script) => script.src),
  );
  expect(scripts.filter((src) => !src.startsWith(new URL(page.url()).origin))).toEqual([]);
  expect(scriptRequests).toEqual([]);
  await page.close();
});

test('configured tracking scripts are added as async scripts after the page has loaded', async () => {
  const kinds = ['analytics', 'advertisingPixel', 'socialPixel', 'productAnalytics'];
  const origin = await webOrigin(Object.fromEntries(kinds.map((kind) => [kind, `${scriptOrigin}/t.js?kind=${kind}`])));
  const page = await openStartedLandingPage(origin);
  await page.waitForFunction(
    (count) => Object.keys((globalThis as unknown as PageGlobals).e2eTrackingRanAt ?? {}).length === count,
    kinds.length,
  );
  const ranAt = await page.evaluate(() => (globalThis as unknown as PageGlobals).e2eTrackingRanAt);
  expect(ranAt).toEqual(Object.fromEntries(kinds.map((kind) => [kind, 'complete'])));
  const tags = await page.evaluate(
    (prefix) =>
      Array.from(
        (globalThis as unknown as PageGlobals).document.querySelectorAll(`script[src^="${prefix}"]`),
        (script) => ({ src: script.src, async: script.async }),
      ),
    scriptOrigin,
  );
  expect(tags).toHaveLength(kinds.length);
  expect(tags.every((tag) => tag.async)).toBe(true);
  expect(scriptRequests.sort()).toEqual(kinds.map((kind) => `/t.js?kind=${kind}`).sort());
  await page.close();
});
