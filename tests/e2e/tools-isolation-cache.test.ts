import path from 'node:path';
import sharp from 'sharp';
import type { BrowserContext, Page } from 'playwright-core';
import { collectPageProblems, moveMouse } from '../support/browser';
import { platformInChromium } from '../support/platform-suite';
import { repoRoot } from '@productgen/test-kit/platform-process';

// Issue 34's free tools: cross-origin isolated however the page is reached (so WASM gets its threads), the model
// taken from the browser's model cache on a second visit, and the remover's background applied to results already
// made. Chromium against the platform as `npm start` runs it, with the real models.
jest.setTimeout(300_000);

const PHOTO = path.join(repoRoot, '..', 'shared', 'photos', 'test', 'kitchen', 'moka-pot.jpg');
const MODEL_TIMEOUT_MS = 120_000;
const REMOVER_MODEL = '/tool-assets/models/u2netp-int8.onnx';

const suite = platformInChromium('tools-isolation');

async function openPage(context: BrowserContext, pagePath: string) {
  const page = await context.newPage();
  page.setDefaultTimeout(MODEL_TIMEOUT_MS);
  const problems = collectPageProblems(page, [{ url: `${suite.platform.apiUrl}/auth/me`, status: 401 }]);
  const modelRequests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.endsWith(REMOVER_MODEL)) modelRequests.push(request.url());
  });
  // Every document of the page notes when single-spa has mounted its first app (the shell is running).
  await page.addInitScript(() =>
    window.addEventListener('single-spa:first-mount', () => ((window as unknown as WithMounted).e2eMounted = true)),
  );
  await page.goto(`${suite.platform.webUrl}${pagePath}`);
  // A visitor's first input starts the platform on a public page.
  await moveMouse(page);
  return { page, problems, modelRequests };
}

type WithNavigate = { singleSpaNavigate: (url: string) => void };
type WithMounted = { e2eMounted?: boolean };

const isolated = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { crossOriginIsolated: boolean }).crossOriginIsolated);

/** single-spa's navigateToUrl (its window.singleSpaNavigate) once the platform runs, until the next document loads. */
async function navigateInPage(page: Page, pagePath: string): Promise<void> {
  await moveMouse(page);
  await page.waitForFunction(() => (window as unknown as WithMounted).e2eMounted === true);
  await Promise.all([
    page.waitForEvent('load'),
    page.evaluate((target) => (window as unknown as WithNavigate).singleSpaNavigate(target), pagePath),
  ]);
}

async function waitForModel(page: Page): Promise<string> {
  const state = page.getByTestId('model-ready').or(page.getByRole('alert'));
  await state.waitFor({ timeout: MODEL_TIMEOUT_MS });
  return state.innerText();
}

/** The RGB of the top-left pixel of the remover's result, downloaded as a visitor does. */
async function downloadedCorner(page: Page, expectedName: string): Promise<number[]> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(expectedName);
  const { data } = await sharp(await download.path())
    .raw()
    .toBuffer({ resolveWithObject: true });
  return Array.from(data.subarray(0, 3));
}

describe('free tools: isolation, model cache, background colour', () => {
  test('a tool page reached by an in-app link is cross-origin isolated, and leaving it by one is not', async () => {
    const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, problems } = await openPage(context, '/pricing');
    expect(await isolated(page)).toBe(false);

    // The top bar's Free Tools menu, once the platform runs it.
    await page.getByRole('button', { name: 'Free Tools' }).click();
    await page.getByRole('menuitem', { name: 'AI Background Remover' }).click();
    await page.waitForURL('**/remove-background-shopify');
    await moveMouse(page);
    expect(await waitForModel(page)).toMatch(/^AI ready · runs on this device: WASM \(CPU, \d+ threads?\)$/);
    expect(await isolated(page)).toBe(true);

    // Another in-page navigation (a script's, as single-spa's navigateToUrl) loads the other page as a document too.
    await navigateInPage(page, '/pricing');
    expect(await isolated(page)).toBe(false);
    await navigateInPage(page, '/image-upscaler');
    await moveMouse(page);
    expect(await waitForModel(page)).toContain('AI ready');
    expect(await isolated(page)).toBe(true);
    expect(problems()).toEqual([]);
    await context.close();
  });

  test('a second visit takes the model from the cache; a new background recolours the results already made', async () => {
    const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const first = await openPage(context, '/remove-background-shopify');
    expect(await waitForModel(first.page)).toContain('AI ready');
    expect(first.modelRequests).toHaveLength(1);
    // The model is stored in the background once fetched: wait until it is there.
    await first.page.waitForFunction(
      () =>
        new Promise<boolean>((resolve) => {
          const opening = indexedDB.open('productgen-tool-models');
          opening.onsuccess = () => {
            const database = opening.result;
            if (!database.objectStoreNames.contains('models')) return resolve(false);
            const count = database.transaction('models').objectStore('models').count();
            count.onsuccess = () => resolve(count.result > 0);
            count.onerror = () => resolve(false);
          };
          opening.onerror = () => resolve(false);
        }),
    );
    await first.page.close();

    const second = await openPage(context, '/remove-background-shopify');
    expect(await waitForModel(second.page)).toContain('AI ready');
    expect(second.modelRequests).toEqual([]);

    // The cached model works, and the background chosen afterwards applies to the finished result.
    const { page } = second;
    const photo = path.join(suite.workDir, 'pot.jpg');
    await sharp(PHOTO).resize(400, 400, { fit: 'inside' }).jpeg().toFile(photo);
    await page.locator('input[type=file]').setInputFiles(photo);
    await page.getByRole('button', { name: 'Remove background' }).click();
    await page.locator('[data-testid=queue-item][data-status=done]').waitFor();
    await page.getByRole('img', { name: 'pot_nobg.png' }).waitFor();

    await page.getByLabel('Colour (JPEG)').check();
    await page.getByLabel('Background colour').fill('#00ff00');
    await page.getByRole('img', { name: 'pot_nobg.jpg' }).waitFor();
    const green = await downloadedCorner(page, 'pot_nobg.jpg');
    expect(green[0]).toBeLessThan(30);
    expect(green[1]).toBeGreaterThan(225);
    expect(green[2]).toBeLessThan(30);

    await page.getByLabel('Background colour').fill('#ff0000');
    await page.waitForFunction(async () => {
      const image = document.querySelector<HTMLImageElement>('[data-testid=queue-item] img');
      if (!image?.complete) return false;
      const canvas = document.createElement('canvas');
      canvas.width = 1;
      canvas.height = 1;
      const context2d = canvas.getContext('2d')!;
      context2d.drawImage(image, 0, 0, 1, 1, 0, 0, 1, 1);
      const [red, greenValue] = context2d.getImageData(0, 0, 1, 1).data;
      return red! > 225 && greenValue! < 30;
    });
    const red = await downloadedCorner(page, 'pot_nobg.jpg');
    expect(red[0]).toBeGreaterThan(225);
    expect(red[1]).toBeLessThan(30);

    await page.getByLabel('Transparent (PNG)').check();
    await page.getByRole('img', { name: 'pot_nobg.png' }).waitFor();
    expect(second.problems()).toEqual([]);
    expect(first.problems()).toEqual([]);
    await context.close();
  });
});
