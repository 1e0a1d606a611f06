import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { collectPageProblems, launchBrowser } from '../support/browser';
import { startPlatformProcess, type PlatformProcess } from '../support/platform-process';

// The landing page's demo widget (SPEC §2 "Demo widget", §9 "Demo") in Chromium against `npm start`: a visitor
// picks a sample photo, presses Create, watches the stages and gets 5 studio results, then resets.
jest.setTimeout(120_000);

interface PageGlobals {
  document: { querySelectorAll(selector: string): ArrayLike<{ naturalWidth: number; complete: boolean }> };
}

let dataDir: string;
let platform: PlatformProcess;
let browser: Browser;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'productgen-demo-'));
  platform = await startPlatformProcess({ dataDir });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await platform?.stop('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

test('from a sample pick to Done! with the stage texts and 5 results, then Reset', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = collectPageProblems(page, [{ url: `${platform.apiUrl}/auth/me`, status: 401 }]);
  await page.goto(`${platform.webUrl}/#demo`);
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

  await create.click();
  await demo.getByRole('button', { name: 'Working...' }).waitFor();
  // The four stages of SPEC §2 show in order while the progress grows by 20 every 600 ms.
  for (const stage of ['uploading photo', 'analyzing product', 'making magic', 'finalizing']) {
    await demo.getByText(stage, { exact: true }).waitFor();
  }
  await demo.getByRole('button', { name: 'Done!' }).waitFor();
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
