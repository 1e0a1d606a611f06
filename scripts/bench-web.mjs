#!/usr/bin/env node
// npm run bench:web: Lighthouse (mobile preset, simulated throttling) on the landing page, one category page, /pricing
// and one free tool's page of the platform as `npm start` runs it. Prints performance, LCP, CLS, TBT, SEO and
// accessibility per page, and the compressed JavaScript bytes the landing page downloads: before the visitor's first
// input (what Lighthouse sees: a public page starts the platform at the first input or after a quiet moment) and in
// all once the platform has started and the page's app has mounted. Against BENCH_WEB_URL when set, otherwise it
// starts the built platform (packages/devstack/dist/main.js) on free ports with a temporary data directory.
// Debian's Chromium is driven offline; nothing is downloaded. BENCH_WEB_REPORT_DIR=<dir> also writes each page's
// full Lighthouse report (JSON) there.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import hostCpu from '@productgen/host-cpu'; // CommonJS, as below
import platformProcess from '@productgen/test-kit/platform-process'; // CommonJS: its exports come as one object
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';

const { startPlatformProcess } = platformProcess;

const PAGES = ['/', '/fashion-product-photos', '/pricing', '/remove-background-shopify'];
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The built platform as `npm start` runs it (test-kit's launcher), on free ports and a data folder of its own. */
async function startPlatform() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'productgen-bench-web-'));
  const platform = await startPlatformProcess({ dataDir });
  return {
    url: platform.webUrl,
    async stop() {
      await platform.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function scriptBytes(lhr) {
  const requests = lhr.audits['network-requests']?.details?.items ?? [];
  return requests
    .filter((request) => request.resourceType === 'Script')
    .reduce((sum, request) => sum + (request.transferSize ?? 0), 0);
}

/**
 * The compressed script bytes a page downloads until its app has mounted, its first input (a mouse move) starting the
 * platform: the whole start-up JavaScript, which Lighthouse's run (no input) does not see.
 */
async function startedScriptBytes(url) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    const sizes = [];
    page.on('requestfinished', (request) => {
      if (request.resourceType() === 'script') sizes.push(request.sizes().then((size) => size.responseBodySize));
    });
    await page.addInitScript(() =>
      window.addEventListener('single-spa:first-mount', () => (window.benchMounted = true), { once: true }),
    );
    await page.goto(url, { waitUntil: 'load' });
    await page.mouse.move(10, 10);
    await page.waitForFunction(() => window.benchMounted === true);
    await page.waitForLoadState('networkidle');
    return (await Promise.all(sizes)).reduce((sum, bytes) => sum + bytes, 0);
  } finally {
    await browser.close();
  }
}

async function main() {
  console.log(hostCpu.describeCpu());
  const platform = process.env.BENCH_WEB_URL ? null : await startPlatform();
  const baseUrl = process.env.BENCH_WEB_URL ?? platform.url;
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const rows = [];
    let landingScriptBytes = 0;
    for (const page of PAGES) {
      const { lhr } = await lighthouse(`${baseUrl}${page}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'seo', 'accessibility'],
      });
      const score = (category) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
      rows.push({
        page,
        performance: score('performance'),
        'LCP (s)': Number((lhr.audits['largest-contentful-paint'].numericValue / 1000).toFixed(2)),
        CLS: Number(lhr.audits['cumulative-layout-shift'].numericValue.toFixed(3)),
        // Main-thread time blocked by long tasks: with simulated throttling, what the page's JavaScript costs.
        'TBT (ms)': Math.round(lhr.audits['total-blocking-time'].numericValue),
        SEO: score('seo'),
        accessibility: score('accessibility'),
        'JS (KB, compressed)': Math.round(scriptBytes(lhr) / 1024),
      });
      if (page === '/') landingScriptBytes = scriptBytes(lhr);
      // The full Lighthouse reports (diagnostics: render-blocking, unused JS, LCP element, main-thread work).
      if (process.env.BENCH_WEB_REPORT_DIR) {
        mkdirSync(process.env.BENCH_WEB_REPORT_DIR, { recursive: true });
        const file = `${page === '/' ? 'landing' : page.slice(1).replace(/\//g, '_')}.json`;
        writeFileSync(path.join(process.env.BENCH_WEB_REPORT_DIR, file), JSON.stringify(lhr));
      }
      if (lhr.runtimeError) console.error(`${page}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    }
    console.table(rows);
    const started = await startedScriptBytes(`${baseUrl}/`);
    console.log(
      `landing page JavaScript, compressed: ${Math.round(landingScriptBytes / 1024)} KB before the first input, ` +
        `${Math.round(started / 1024)} KB once the platform has started`,
    );
  } finally {
    await chrome.kill();
    await platform?.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
