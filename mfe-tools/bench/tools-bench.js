'use strict';
// `npm run bench:tools`: the free tools' speed in headless Chromium against the built platform (as `npm start` runs
// it): model load times (first visit, and a second visit whose model comes from the browser's model cache),
// background removal of a 1024-px photo with where its time goes (decode, inference, mask refinement, encode),
// upscaling of a 384-px photo, and the eraser's fill of 2 % and 10 % masks at 1024 px, each beside its goal. The
// pages record their own timings as performance measures; this script reads them. Figures only, no pass/fail.
// Each model tool's two visits run in a new browser profile on disk (first visit: nothing cached), as a returning
// visitor's browser keeps it. Not in an off-the-record context (`browser.newContext()`): Chromium keeps no
// WebAssembly code cache there, so its "second visit" compiled onnxruntime's ~14 MB WebAssembly again (traced: no
// v8.wasm.moduleCacheHit, ~3 600 functions compiled lazily), which no returning visitor's browser does.
// Whether the first visit left that cache is printed: where it did not (seen with Chromium 156 on an AMD EPYC: no
// entry, even after a removal and a 5-s stay), the second visit's 'runtime' is the compile again, not the page.

const { existsSync, mkdtempSync, readdirSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');
const { describeCpu } = require('@productgen/host-cpu');
const { startPlatformProcess } = require('@productgen/test-kit/platform-process');
const { chromium } = require('playwright-core');
const sharp = require('sharp');

const repoRoot = path.resolve(__dirname, '..', '..');
const PHOTO = path.resolve(repoRoot, '..', 'shared', 'photos', 'demo', 'guitar.jpg');
const WAIT_MS = 300_000;
const LAUNCH_OPTIONS = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
};

async function photo(file, longSide) {
  await sharp(PHOTO).resize(longSide, longSide, { fit: 'inside' }).jpeg({ quality: 90 }).toFile(file);
  return file;
}

/** Seconds of the page's performance measure with that name (the last one), once it exists. */
async function measure(page, name) {
  await page.waitForFunction((wanted) => performance.getEntriesByName(wanted).length > 0, name, { timeout: WAIT_MS });
  return page.evaluate((wanted) => {
    const entries = performance.getEntriesByName(wanted);
    return entries[entries.length - 1].duration / 1000;
  }, name);
}

/**
 * Seconds from the page's navigation to the end of that measure: what a visitor waits, the platform's own start
 * (scripts, module federation, React, the microfrontend) before the tool's hook included.
 */
function sinceNavigation(page, name) {
  return page.evaluate((wanted) => {
    const entries = performance.getEntriesByName(wanted);
    const entry = entries[entries.length - 1];
    return (entry.startTime + entry.duration) / 1000;
  }, name);
}

/** Opens a tool page as a visitor does (a mouse move starts the platform at once; see shell/src/index.html). */
async function openTool(context, webUrl, route) {
  const page = await context.newPage();
  const modelRequests = [];
  page.on('request', (request) => {
    if (request.url().includes('/tool-assets/models/')) modelRequests.push(request.url());
  });
  await page.goto(`${webUrl}${route}`);
  await page.mouse.move(1, 1);
  return { page, modelRequests };
}

/**
 * Entries in the profile's WebAssembly code cache (Chromium's simple cache: one `<hash>_0` file an entry). Without
 * one from the first visit the second compiles onnxruntime's WebAssembly again, and its 'runtime' stage says so.
 */
function wasmCodeCacheEntries(profile) {
  const folder = path.join(profile, 'Default', 'Code Cache', 'wasm');
  return existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('_0')).length : 0;
}

/** One tool run on a first visit, then a second visit in the same browser profile: how fast its model is ready. */
async function benchModelTool(webUrl, route, model, measureName, file, button, stages = []) {
  const profile = mkdtempSync(path.join(tmpdir(), 'productgen-bench-tools-profile-'));
  const context = await chromium.launchPersistentContext(profile, LAUNCH_OPTIONS);
  try {
    return await visitTwice(context, webUrl, route, model, measureName, file, button, stages, profile);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

async function visitTwice(context, webUrl, route, model, measureName, file, button, stages, profile) {
  const { page } = await openTool(context, webUrl, route);
  const load = await measure(page, `${model} model load`);
  const backend = await page.getByTestId('model-ready').innerText();
  await page.locator('input[type=file]').setInputFiles(file);
  await page.getByRole('button', { name: button }).click();
  const run = await measure(page, measureName);
  const stageSeconds = {};
  for (const stage of stages) stageSeconds[stage] = await measure(page, `${measureName}: ${stage}`);
  await page.close();
  const codeCacheEntries = wasmCodeCacheEntries(profile);
  const second = await openTool(context, webUrl, route);
  const cachedLoad = await measure(second.page, `${model} model load`);
  const cachedReadyAfterOpening = await sinceNavigation(second.page, `${model} model load`);
  const cachedStages = {};
  for (const stage of ['runtime', 'waiting for the model file', 'session']) {
    cachedStages[stage] = await measure(second.page, `${model} model load: ${stage}`);
  }
  const cachedFromNetwork = second.modelRequests.length;
  return {
    load,
    run,
    backend,
    stageSeconds,
    cachedLoad,
    cachedReadyAfterOpening,
    cachedStages,
    cachedFromNetwork,
    codeCacheEntries,
  };
}

/** The eraser's own worker script on a 1024×768 photo with a disc mask of the given share of the picture. */
async function benchFill(browser, webUrl, share) {
  const context = await browser.newContext();
  const { page } = await openTool(context, webUrl, '/remove-object-from-photo');
  await page.getByText('Device mode: CPU').waitFor({ timeout: WAIT_MS });
  const worker = readdirSync(path.join(repoRoot, 'mfe-tools', 'dist')).find((name) =>
    /^productgen-fill\..*\.js$/.test(name),
  );
  const { version } = require(path.join(repoRoot, 'mfe-tools', 'package.json'));
  const workerUrl = `${webUrl}/mfe/tools/${version}/${worker}`;
  const { data, info } = await sharp(PHOTO)
    .resize(1024, 768, { fit: 'cover' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const seconds = await page.evaluate(
    async ({ url, pixels, width, height, share }) => {
      const rgba = Uint8ClampedArray.from(atob(pixels), (char) => char.charCodeAt(0));
      const mask = new Uint8Array(width * height);
      const radius = Math.sqrt((share * width * height) / Math.PI);
      for (let y = 0; y < height; y += 1) {
        for (let x = 0; x < width; x += 1) {
          if ((x - width / 2) ** 2 + (y - height / 2) ** 2 <= radius * radius) mask[y * width + x] = 1;
        }
      }
      const worker = new Worker(url);
      const started = performance.now();
      await new Promise((resolve, reject) => {
        worker.onmessage = (event) => (event.data.type === 'image' ? resolve() : reject(new Error(event.data.message)));
        worker.postMessage({ type: 'fill', id: 1, data: rgba, width, height, mask });
      });
      worker.terminate();
      return (performance.now() - started) / 1000;
    },
    { url: workerUrl, pixels: data.toString('base64'), width: info.width, height: info.height, share },
  );
  await context.close();
  return seconds;
}

async function main() {
  console.log(describeCpu());
  const dataDir = mkdtempSync(path.join(tmpdir(), 'productgen-bench-tools-'));
  const files = mkdtempSync(path.join(tmpdir(), 'productgen-bench-tools-files-'));
  const platform = await startPlatformProcess({ dataDir, startTimeoutMs: WAIT_MS });
  const browser = await chromium.launch(LAUNCH_OPTIONS);
  const s = (seconds) => `${seconds.toFixed(2)} s`;
  try {
    console.log(`free tools in headless Chromium ${browser.version()} (figures appear as they are measured)`);
    const remover = await benchModelTool(
      platform.webUrl,
      '/remove-background-shopify',
      'segmentation',
      'background removal',
      await photo(path.join(files, 'remover.jpg'), 1024),
      'Remove background',
      ['decode', 'inference', 'mask refinement', 'encode'],
    );
    const cached = (result) =>
      `${s(result.cachedLoad)}  (goal ≤ 0.50 s; model requests over the network: ${result.cachedFromNetwork}; ` +
      `WebAssembly code cache entries from the first visit: ${result.codeCacheEntries}), of which:\n` +
      Object.entries(result.cachedStages)
        .map(([stage, seconds]) => `    ${stage.padEnd(40)}${s(seconds)}`)
        .join('\n') +
      `\n    ${'ready after the page was opened'.padEnd(40)}${s(result.cachedReadyAfterOpening)}  (with the platform's start at ` +
      'the first input, before the tool asks for its model)';
    console.log(
      `  device                                    ${remover.backend.replace(/^AI ready · runs on this device: /, '')}`,
    );
    console.log(`  u2netp (int8) runtime + model load        ${s(remover.load)}`);
    console.log(`  the same, second visit (model cache)      ${cached(remover)}`);
    console.log(`  background removal, 1024-px photo         ${s(remover.run)}  (goal ≤ 1.50 s), of which:`);
    for (const [stage, seconds] of Object.entries(remover.stageSeconds)) {
      console.log(`    ${stage.padEnd(40)}${s(seconds)}`);
    }
    const upscaler = await benchModelTool(
      platform.webUrl,
      '/image-upscaler',
      'upscaler',
      'upscale',
      await photo(path.join(files, 'upscaler.jpg'), 384),
      'Upscale',
    );
    console.log(`  Real-ESRGAN x4 (int8) runtime + model load${s(upscaler.load)}`);
    console.log(`  the same, second visit (model cache)      ${cached(upscaler)}`);
    console.log(`  upscaling, 384-px photo (→ 1536 px)       ${s(upscaler.run)}  (goal ≤ 5.00 s)`);
    console.log(`  eraser fill, 2 % mask at 1024×768         ${s(await benchFill(browser, platform.webUrl, 0.02))}`);
    console.log(`  eraser fill, 10 % mask at 1024×768        ${s(await benchFill(browser, platform.webUrl, 0.1))}`);
    console.log(
      '  @imgly/background-removal: not run (its ISNet model is fetched from a CDN at run time, which is not ' +
        'reachable offline here; AGPL: never bundled)',
    );
  } finally {
    await browser.close();
    await platform.stop('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(files, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
