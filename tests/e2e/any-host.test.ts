import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { collectPageProblems, launchBrowser, waitForImages } from '../support/browser';
import {
  repoRoot,
  signInWithDevIdentity,
  startPlatformProcess,
  type PlatformProcess,
} from '@productgen/test-kit/platform-process';
import { pollUntil } from '@productgen/test-kit';
import { buyThroughDevCheckout, creditsLink, signInThroughDevDialog } from '../support/platform-ui';

// Issue 9's "any host works": the platform as `npm start` runs it, opened at http://127.0.0.1:<port>, at
// http://localhost:<port> and at a LAN-style name (Chromium resolves productgen.lan to loopback, as a home
// network's DNS would resolve the machine's name). On each, the web app calls the API at the host the page was
// opened at, and the created images (download links on the API, sent the session cookie) load with no console
// error. One account throughout: its first creation makes 5 images, the later ones 1 each.
jest.setTimeout(300_000);

const PHOTO = path.join(repoRoot, '..', 'shared', 'photos', 'test', 'kitchen', 'toaster-chrome.jpg');
const LAN_NAME = 'productgen.lan';
const CREATION_TIMEOUT_MS = 150_000;
const person = { email: 'any.host@example.com', givenName: 'Ada', familyName: 'Anyhost' };
const SIGNUP_CREDITS = 10;
const HOBBYIST_CREDITS = 5;
/** The account's balance as the steps change it: each host creates, then buys Hobbyist. */
let credits = SIGNUP_CREDITS;

let dataDir: string;
let platform: PlatformProcess;
let browser: Browser;
let webPort: string;
let apiPort: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'productgen-e2e-any-host-'));
  platform = await startPlatformProcess({ dataDir, startTimeoutMs: 150_000 });
  webPort = new URL(platform.webUrl).port;
  apiPort = new URL(platform.apiUrl).port;
  browser = await launchBrowser([`--host-resolver-rules=MAP ${LAN_NAME} 127.0.0.1`]);
});

afterAll(async () => {
  await browser?.close();
  await platform?.stop('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

describe.each([
  { host: '127.0.0.1', images: 5 },
  { host: 'localhost', images: 1 },
  { host: LAN_NAME, images: 1 },
])('opened at http://$host:<port>', ({ host, images }) => {
  let context: BrowserContext;
  let page: Page;
  let pageProblems: () => string[];
  const webOrigin = () => `http://${host}:${webPort}`;
  const apiOrigin = () => `http://${host}:${apiPort}`;
  const settings = () => page.getByRole('region', { name: 'Generation Settings' });

  beforeAll(async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    // A visitor's current-user check is answered 401 on purpose (SPEC §7: /auth/me gives false on 401).
    pageProblems = collectPageProblems(page, [{ url: `${apiOrigin()}/auth/me`, status: 401 }]);
  });

  afterAll(async () => {
    await context?.close();
  });

  test('signs in and creates images that load from the API at the same host', async () => {
    await page.goto(`${webOrigin()}/`);
    await signInThroughDevDialog(page, person);
    await page.goto(`${webOrigin()}/productgen`);

    const analysed = page.waitForResponse(
      (response) => response.url() === `${apiOrigin()}/image-gen/category` && response.request().method() === 'POST',
    );
    await settings()
      .getByLabel(/^(Upload a product photo|Replace photo)/)
      .setInputFiles(PHOTO);
    expect((await analysed).status()).toBe(200);
    await page.getByText('Analyzing image...').waitFor({ state: 'detached' });

    if (images === 1) {
      // Not the account's first creation any more: the count is the user's to choose (Home: the slider's least).
      const slider = settings().getByRole('slider', { name: 'Number of Images' });
      await slider.focus();
      await page.keyboard.press('Home');
    }
    await settings()
      .getByText(`Uses ${images} credit${images === 1 ? '' : 's'} ·`)
      .waitFor();

    const started = page.waitForResponse(
      (response) => response.url() === `${apiOrigin()}/imageGenFromId` && response.request().method() === 'POST',
    );
    await settings().getByRole('button', { name: 'Create', exact: true }).click();
    expect((await started).status()).toBe(200);
    await page.getByRole('progressbar').waitFor({ state: 'detached', timeout: CREATION_TIMEOUT_MS });

    // The large image and one thumbnail per variation, each loaded (naturalWidth > 0) from this host's API.
    const shown = await waitForImages(page, 'section[aria-label="Created images"] img', images + 1);
    expect(shown.filter((image) => !image.src.startsWith(`${apiOrigin()}/download/`) || image.width === 0)).toEqual([]);
    credits -= images;

    // The next host's page reads the account when it loads: wait until auth has recorded the first creation.
    const { session_key: sessionKey } = await signInWithDevIdentity(platform.apiUrl, {
      email: person.email,
      given_name: person.givenName,
      family_name: person.familyName,
    });
    await pollUntil(
      'the first creation to be recorded on the account',
      async () =>
        (await (await fetch(`${platform.apiUrl}/auth/me`, { headers: { 'X-Session-Key': sessionKey } })).json()) as {
          flags: { is_first_generation: boolean };
        },
      (user) => !user.flags.is_first_generation,
    );
  });

  test('a purchase through the checkout returns to this host, signed in', async () => {
    await buyThroughDevCheckout(page, {
      webOrigin: webOrigin(),
      apiOrigin: apiOrigin(),
      packageName: 'Hobbyist',
      price: '$0.99',
    });
    credits += HOBBYIST_CREDITS;
    await creditsLink(page, credits).waitFor({ timeout: 30_000 });
  });

  test('no console error and no uncaught exception on this host', () => {
    expect(pageProblems()).toEqual([]);
  });
});
