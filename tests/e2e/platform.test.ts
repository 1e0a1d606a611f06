import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page, Request, Response } from 'playwright-core';
import { parseRoutesManifest, ROUTE_TABLE as STATIC_ROUTES, type MfeName } from '../../packages/mf-shared/src/routes';
import {
  collectPageProblems,
  launchBrowser,
  logRequests,
  moveMouse,
  waitForReactElement,
  type RequestLog,
} from '../support/browser';
import { readStoppedPlatformDatabase } from '../support/platform-database';
import { repoRoot, startPlatformProcess, type PlatformProcess } from '@productgen/test-kit/platform-process';
import { sessionKeyOf } from '../support/platform-ui';

// A new user's first visit, in real Chromium against the platform as `npm start` runs it. The tests form one
// journey and run in order: visitor pages first, then sign-in, settings and logout, then checks over the whole run.
jest.setTimeout(120_000);

const PRODUCT_NAME = 'ProductGen';
const SCREENSHOTS = path.join(repoRoot, 'test-results', 'screenshots');
const person = { email: 'ada.e2e@example.com', givenName: 'Ada', familyName: 'Lovelace' };
const REF_CODE = 'abc';
const SITE_URL = 'https://example.com';
/** SPEC §6: visitors are sent away from these, so they are checked signed in. */
const SIGNED_IN_ROUTES = new Set(['/productgen', '/job/:bulkJobUuid']);
const SAMPLE_PARAMS: Record<string, string> = { bulkJobUuid: '0b7f6a52-3c1e-4f6d-9a8b-2d4c6e8f0a1b' };
const FREE_TOOLS = [
  { label: 'Image Resizer', href: '/image-resizer' },
  { label: 'AI Background Remover', href: '/remove-background-shopify' },
  { label: 'AI Image Upscaler', href: '/image-upscaler' },
  { label: 'Remove Object from Photo', href: '/remove-object-from-photo' },
];
const REACT_PACKAGES = ['react', 'react-dom', 'react-dom/client', 'react/jsx-runtime'];
/** The static routes plus the marketing pages its build published from its content files (routes.json). */
const ROUTE_TABLE = [
  ...STATIC_ROUTES,
  ...parseRoutesManifest(
    'mfe_marketing',
    JSON.parse(readFileSync(path.join(repoRoot, 'mfe-marketing', 'dist', 'routes.json'), 'utf8')),
  ),
];

function routeEntry(routePath: string) {
  const entry = ROUTE_TABLE.find((candidate) => candidate.path === routePath);
  if (!entry) throw new Error(`No route "${routePath}"`);
  return entry;
}

/**
 * The browser globals the in-page callbacks read. They run in Chromium, but are type-checked with the node
 * project's types, which have no DOM.
 */
interface PageGlobals {
  document: { title: string; images: ArrayLike<{ complete: boolean }> };
  /** Set by the page-view test: survives client-side navigations, not page loads. */
  e2eSameDocument?: boolean;
  /** Set once single-spa has mounted the document's first app (openPage). */
  e2eMounted?: boolean;
  /** Module federation's runtime: share scope per container instance → package → version → provider. */
  __FEDERATION__: {
    __SHARE__: Record<
      string,
      { default: Record<string, Record<string, { from: string; loaded?: boolean; useIn: string[] }>> }
    >;
  };
}

/** SPEC §2: each page's title, followed by the product name. */
function pageTitle(title: string): string {
  return `${title} | ${PRODUCT_NAME}`;
}

let dataDir: string;
let platform: PlatformProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let requests: RequestLog;
/** Remote name → its manifest path, as the registry says (e.g. /mfe/dashboard/0.1.0/mf-manifest.json). */
let registry: Record<string, string>;
const problemReports: Array<() => string[]> = [];
const allRequests: RequestLog[] = [];

function samplePath(pattern: string): string {
  return pattern.replace(/:(\w+)/g, (_match, name: string) => {
    const value = SAMPLE_PARAMS[name];
    if (!value) throw new Error(`no sample value for the route parameter :${name}`);
    return value;
  });
}

async function openPage(): Promise<Page> {
  const opened = await context.newPage();
  // Every document notes when the shell has mounted its first app (single-spa's event): the platform is running.
  await opened.addInitScript(() =>
    (globalThis as unknown as EventTarget).addEventListener(
      'single-spa:first-mount',
      () => ((globalThis as unknown as PageGlobals).e2eMounted = true),
    ),
  );
  // A visitor's current-user check is answered 401 on purpose (SPEC §7: /auth/me gives false on 401).
  // An unknown path is answered 404 (with the shell's not-found page), which Chromium logs as well; so is the
  // sample job of the route walk, which no user has (the job page then says "Job not found.").
  problemReports.push(
    collectPageProblems(opened, [
      { url: `${platform.apiUrl}/auth/me`, status: 401 },
      { url: `${platform.webUrl}/no-such-page-e2e`, status: 404 },
      { url: `${platform.apiUrl}/image-gen/bulk-job/${SAMPLE_PARAMS.bulkJobUuid}`, status: 404 },
    ]),
  );
  const log = logRequests(opened);
  allRequests.push(log);
  requests = log;
  return opened;
}

function manifestRequests(urls: string[]): string[] {
  return urls.map((url) => new URL(url).pathname).filter((pathname) => pathname.endsWith('/mf-manifest.json'));
}

async function waitForTitle(expected: string): Promise<void> {
  try {
    await page.waitForFunction((title) => (globalThis as unknown as PageGlobals).document.title === title, expected, {
      timeout: 15_000,
    });
  } catch {
    throw new Error(`expected the title "${expected}" on ${page.url()}, got "${await page.title()}"`);
  }
}

/** Containers of the applications that rendered something (the shell gives each its own div in <main>). */
function renderedApps(): Promise<string[]> {
  return page.$$eval('#pg-main > [id^="pg-app-"]', (containers) =>
    containers
      .filter((container) => container.childElementCount > 0)
      .map((container) => container.id.replace(/^pg-app-/, '')),
  );
}

/** The page is the owning microfrontend's: its heading in its container, its styles, and no other app on screen. */
async function expectServedBy(owner: MfeName, title: string): Promise<void> {
  // Marketing pages are prerendered: their heading is on screen before the remote loads, so wait for React's.
  await waitForReactElement(page, `#pg-app-${owner} h1`);
  await waitForTitle(pageTitle(title));
  expect(await renderedApps()).toEqual([owner]);
  expect(await page.locator(`style[data-mfe-styles="${owner}"]`).count()).toBeGreaterThan(0);
}

/** Loads a path in the current page; the returned function lists what the page requested since then. */
/** Opens a page as a visitor does (a public page starts the platform at the first input) until its app is mounted. */
async function visit(pathname: string): Promise<() => string[]> {
  const mark = requests.mark();
  await page.goto(`${platform.webUrl}${pathname}`);
  await startedPlatform();
  return () => requests.since(mark);
}

/** A mouse move (a visitor's first input) and the wait until the document's platform has mounted its first app. */
async function startedPlatform(): Promise<void> {
  await moveMouse(page);
  await page.waitForFunction(() => (globalThis as unknown as PageGlobals).e2eMounted === true);
}

function topBar(): Locator {
  return page.locator('#pg-top-bar');
}

async function screenshot(name: string): Promise<void> {
  await page.waitForFunction(() =>
    Array.from((globalThis as unknown as PageGlobals).document.images).every((image) => image.complete),
  );
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** GET /internal/pst/stats of the gateway (answers loopback clients only). */
interface PageViewStats {
  total: number;
  byPath: Record<string, number>;
  recent: Array<{ path: string | null; data: Record<string, unknown> }>;
}

async function pageViewStats(): Promise<PageViewStats> {
  const answer = await fetch(`${platform.apiUrl}/internal/pst/stats`);
  expect(answer.status).toBe(200);
  return (await answer.json()) as PageViewStats;
}

/** The page-view event a navigation sends (SPEC §2), not its CORS preflight. */
function isPageView(message: Request | Response): boolean {
  const request = 'request' in message ? message.request() : message;
  return request.url() === `${platform.apiUrl}/pst` && request.method() === 'POST';
}

/** Clicks something that navigates inside the single-page app and waits for that navigation's page view. */
async function navigateByClick(target: Locator, expectedPath: string): Promise<void> {
  const pageView = page.waitForResponse(isPageView);
  await target.click();
  await page.waitForURL(`${platform.webUrl}${expectedPath}`);
  expect((await pageView).status()).toBe(200);
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'productgen-e2e-'));
  await mkdir(SCREENSHOTS, { recursive: true });
  platform = await startPlatformProcess({ dataDir });
  registry = (await (await fetch(`${platform.webUrl}/remotes.json`)).json()) as Record<string, string>;
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await openPage();
});

afterAll(async () => {
  await browser?.close();
  await platform?.stop('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

describe('a new user, in Chromium against npm start', () => {
  test('the visitor sees the logged-out top bar and the Free Tools menu', async () => {
    await visit('/');
    const nav = topBar().getByRole('navigation', { name: 'Main' });
    await nav.getByRole('button', { name: 'Join with Google' }).waitFor();
    for (const [label, href] of [
      ['Pricing', '/pricing'],
      ['Demo', '/#demo'],
      ['Ad Agencies', '/for-ad-agencies'],
      ['Start Free', '/login'],
    ]) {
      expect(await nav.getByRole('link', { name: label, exact: true }).getAttribute('href')).toBe(href);
    }
    expect(await nav.getByRole('link', { name: 'Dashboard' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: /credits?$/ }).count()).toBe(0);

    await screenshot('home-visitor');

    await nav.getByRole('button', { name: 'Free Tools' }).click();
    const items = page.getByRole('menu').getByRole('menuitem');
    await items.first().waitFor();
    const shown = await items.evaluateAll((elements) =>
      elements.map((element) => ({ label: element.textContent?.trim(), href: element.getAttribute('href') })),
    );
    expect(shown).toEqual(FREE_TOOLS);
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
  });

  test.each(ROUTE_TABLE.filter((route) => !SIGNED_IN_ROUTES.has(route.path)).map((route) => [route.path, route]))(
    '%s answers with its owning microfrontend and its title',
    async (_path, route) => {
      const requested = await visit(samplePath(route.path));
      await expectServedBy(route.owner, route.title);
      // Only the owner's remote was fetched, from the versioned path the registry names.
      expect(manifestRequests(requested())).toEqual([registry[route.owner]]);
      if (route.path === '/login') await screenshot('login-visitor');
    },
  );

  test('an unknown path shows the not-found page', async () => {
    const requested = await visit('/no-such-page-e2e');
    await expect(page.locator('#pg-app-shell_not_found h1').textContent()).resolves.toBe('Page not found');
    await waitForTitle(pageTitle('Page not found'));
    expect(await renderedApps()).toEqual(['shell_not_found']);
    expect(manifestRequests(requested())).toEqual([]);
  });

  test('/productgen sends a visitor to /', async () => {
    await visit('/productgen');
    await page.waitForURL(`${platform.webUrl}/`);
    await expectServedBy('mfe_marketing', routeEntry('/').title);
  });

  test('every navigation records exactly one page view', async () => {
    const firstView = page.waitForResponse(isPageView);
    await visit('/');
    await firstView;
    const before = await pageViewStats();
    const sent: string[] = [];
    const countPageView = (request: Request) => {
      if (isPageView(request)) sent.push(request.url());
    };
    page.on('request', countPageView);
    // A full page load would reset this; it must survive every step, so all of them are client-side navigations.
    await page.evaluate(() => ((globalThis as unknown as PageGlobals).e2eSameDocument = true));

    const nav = topBar().getByRole('navigation', { name: 'Main' });
    await navigateByClick(nav.getByRole('link', { name: 'Ad Agencies' }), '/for-ad-agencies');
    await navigateByClick(nav.getByRole('link', { name: 'Pricing' }), '/pricing');
    // (The free tools are documents of their own, cross-origin isolated: not part of this one-document walk.)
    const footer = page.locator('#pg-footer');
    await navigateByClick(
      footer.getByRole('link', { name: 'AI Product Photo Generator' }),
      '/ai-product-photo-generator',
    );
    await navigateByClick(footer.getByRole('link', { name: 'Terms of Service' }), '/terms');
    const backView = page.waitForResponse(isPageView);
    await page.goBack();
    await page.waitForURL(`${platform.webUrl}/ai-product-photo-generator`);
    await backView;
    await navigateByClick(topBar().getByRole('link', { name: `${PRODUCT_NAME} home` }), '/');
    await expectServedBy('mfe_marketing', routeEntry('/').title);

    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).e2eSameDocument)).toBe(true);
    page.off('request', countPageView);
    expect(sent).toHaveLength(6);
    const after = await pageViewStats();
    expect(after.total - before.total).toBe(6);
    const delta = (pathname: string) => (after.byPath[pathname] ?? 0) - (before.byPath[pathname] ?? 0);
    expect({
      '/for-ad-agencies': delta('/for-ad-agencies'),
      '/pricing': delta('/pricing'),
      '/ai-product-photo-generator': delta('/ai-product-photo-generator'),
      '/terms': delta('/terms'),
      '/': delta('/'),
    }).toEqual({ '/for-ad-agencies': 1, '/pricing': 1, '/ai-product-photo-generator': 2, '/terms': 1, '/': 1 });
    const newest = after.recent.slice(-6);
    expect(newest.map((event) => event.path)).toEqual([
      '/for-ad-agencies',
      '/pricing',
      '/ai-product-photo-generator',
      '/terms',
      '/ai-product-photo-generator',
      '/',
    ]);
    expect(newest[5]?.data).toEqual(
      expect.objectContaining({
        path: '/',
        full_path: '/',
        referrer: expect.any(String),
        user_agent: expect.stringContaining('Chrome'),
        timestamp: expect.any(String),
        viewport_width: 1280,
        viewport_height: 800,
      }),
    );
  });

  test('arriving with ?ref=abc, the visitor signs in through the dev identity provider and the top bar shows them', async () => {
    await visit(`/?ref=${REF_CODE}`);
    await topBar().getByRole('button', { name: 'Join with Google' }).waitFor();
    const cookies = await context.cookies(platform.webUrl);
    expect(cookies.find((cookie) => cookie.name === 'productgen_ref_code')).toMatchObject({
      value: REF_CODE,
      path: '/',
    });

    await topBar().getByRole('button', { name: 'Join with Google' }).click();
    const dialog = page.getByRole('dialog', { name: /Sign in/ });
    await dialog.getByLabel('Email').fill(person.email);
    await dialog.getByLabel('Given name').fill(person.givenName);
    await dialog.getByLabel('Family name').fill(person.familyName);
    const signInRequest = page.waitForRequest(
      (request) => request.url() === `${platform.apiUrl}/auth/google` && request.method() === 'POST',
    );
    await dialog.getByRole('button', { name: 'Sign in' }).click();
    expect((await signInRequest).postDataJSON()).toMatchObject({ ref_code: REF_CODE });
    await dialog.waitFor({ state: 'detached' });

    const nav = topBar().getByRole('navigation', { name: 'Main' });
    const profile = nav.getByRole('button', { name: new RegExp(`${person.givenName} ${person.familyName}`) });
    await profile.waitFor();
    expect(await nav.getByRole('link', { name: /^\d+ credits?$/ }).getAttribute('href')).toBe('/pricing');
    expect(await nav.getByRole('link', { name: 'Create Photo' }).getAttribute('href')).toBe('/productgen');
    expect(await nav.getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe('/dashboard');
    expect(await nav.getByRole('button', { name: 'Join with Google' }).count()).toBe(0);
    await profile.click();
    const menuItems = await page.getByRole('menu').getByRole('menuitem').allTextContents();
    expect(menuItems.map((label) => label.trim())).toEqual(['Dashboard', 'Settings', 'Buy Credits', 'Logout']);
    await page.keyboard.press('Escape');
  });

  test.each(ROUTE_TABLE.filter((route) => SIGNED_IN_ROUTES.has(route.path)).map((route) => [route.path, route]))(
    '%s answers a signed-in user with its owning microfrontend and its title',
    async (_path, route) => {
      const target = samplePath(route.path);
      const requested = await visit(target);
      await expectServedBy(route.owner, route.title);
      expect(new URL(page.url()).pathname).toBe(target);
      expect(manifestRequests(requested())).toEqual([registry[route.owner]]);
    },
  );

  test('/settings saves a website URL that survives a reload', async () => {
    await visit('/settings');
    const websiteUrl = page.getByLabel('Website URL');
    await websiteUrl.waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe(person.email);
    expect(await page.getByLabel('First name').inputValue()).toBe(person.givenName);
    expect(await page.getByLabel('Last name').inputValue()).toBe(person.familyName);

    await websiteUrl.fill(SITE_URL);
    await page.getByRole('button', { name: 'Save Settings' }).click();
    const saved = page.getByRole('status').filter({ hasText: 'Settings saved successfully!' });
    await saved.waitFor();
    await screenshot('settings-signed-in');
    await saved.waitFor({ state: 'detached', timeout: 15_000 });

    await page.reload();
    await page.getByLabel('Website URL').waitFor();
    expect(await page.getByLabel('Website URL').inputValue()).toBe(SITE_URL);
  });

  test('the dashboard opens for the signed-in user', async () => {
    await visit('/dashboard');
    await expectServedBy('mfe_dashboard', routeEntry('/dashboard').title);
    await screenshot('dashboard-signed-in');
  });

  test('React is loaded once, by the shell, for all four microfrontends', async () => {
    // The module-federation share scope of the current document: one version of each React package, provided by the
    // shell, used by the document's apps.
    const expectReactFromShell = async (apps: readonly MfeName[]) => {
      const scopes = await page.evaluate((packages) => {
        const federation = (globalThis as unknown as PageGlobals).__FEDERATION__;
        return Object.values(federation.__SHARE__).map(({ default: scope }) =>
          Object.fromEntries(
            packages.map((name) => [
              name,
              Object.entries(scope[name] ?? {}).map(([version, provided]) => ({
                version,
                from: provided.from,
                loaded: provided.loaded === true,
                useIn: [...provided.useIn].sort(),
              })),
            ]),
          ),
        );
      }, REACT_PACKAGES);
      expect(scopes.length).toBeGreaterThan(0);
      for (const scope of scopes) {
        for (const name of REACT_PACKAGES) {
          // Every microfrontend mounts through react-dom/client and renders with react (mf-shared's lifecycles).
          const consumers = name === 'react' || name === 'react-dom/client' ? [...apps] : [];
          expect({ name, provided: scope[name] }).toEqual({
            name,
            provided: [
              { version: expect.any(String), from: 'shell', loaded: true, useIn: expect.arrayContaining(consumers) },
            ],
          });
        }
      }
    };
    // One document that runs three microfrontends, reached by client-side navigations…
    page = await openPage();
    await visit('/dashboard');
    await expectServedBy('mfe_dashboard', routeEntry('/dashboard').title);
    const nav = topBar().getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Create Photo' }).click();
    await expectServedBy('mfe_create', routeEntry('/productgen').title);
    await topBar()
      .getByRole('link', { name: `${PRODUCT_NAME} home` })
      .click();
    await expectServedBy('mfe_marketing', routeEntry('/').title);
    await expectReactFromShell(['mfe_dashboard', 'mfe_create', 'mfe_marketing']);
    // …and the free tools' own document (cross-origin isolated, so loaded as a document of its own).
    await nav.getByRole('button', { name: 'Free Tools' }).click();
    await page.getByRole('menuitem', { name: 'AI Image Upscaler' }).click();
    await page.waitForURL(`${platform.webUrl}/image-upscaler`);
    await startedPlatform();
    await expectServedBy('mfe_tools', routeEntry('/image-upscaler').title);
    await expectReactFromShell(['mfe_tools']);

    // And over every page of the run: no microfrontend ever downloaded its own React (its fallback chunks).
    const ownReactChunks = new Set<string>();
    for (const [remote, manifestPath] of Object.entries(registry)) {
      const manifest = (await (await fetch(`${platform.webUrl}${manifestPath}`)).json()) as {
        shared: Array<{ name: string; assets: { js: { sync: string[]; async: string[] } } }>;
      };
      const base = manifestPath.slice(0, manifestPath.lastIndexOf('/') + 1);
      const reactShares = manifest.shared.filter((shared) => REACT_PACKAGES.includes(shared.name));
      expect({ remote, shares: reactShares.map((shared) => shared.name).sort() }).toEqual({
        remote,
        shares: [...REACT_PACKAGES].sort(),
      });
      for (const shared of reactShares) {
        for (const file of [...shared.assets.js.sync, ...shared.assets.js.async]) ownReactChunks.add(`${base}${file}`);
      }
    }
    const requestedPaths = allRequests.flatMap((log) => log.all()).map((url) => new URL(url).pathname);
    expect(requestedPaths.filter((pathname) => ownReactChunks.has(pathname))).toEqual([]);
    expect(requestedPaths.filter((pathname) => pathname.startsWith('/mfe/')).length).toBeGreaterThan(0);
  });

  test('logout returns to the logged-out top bar and the old session key answers 401', async () => {
    await visit('/settings');
    await page.getByLabel('Website URL').waitFor();
    const oldKey = await sessionKeyOf(page, platform.apiUrl);
    const before = await fetch(`${platform.apiUrl}/auth/me`, { headers: { 'X-Session-Key': oldKey } });
    expect(before.status).toBe(200);

    await topBar()
      .getByRole('button', { name: new RegExp(`${person.givenName} ${person.familyName}`) })
      .click();
    const logout = page.waitForResponse((response) => response.url() === `${platform.apiUrl}/auth/logout`);
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    expect((await logout).status()).toBe(200);
    await topBar().getByRole('button', { name: 'Join with Google' }).waitFor();
    await page.waitForURL(`${platform.webUrl}/`);
    expect(await topBar().getByRole('link', { name: 'Start Free' }).count()).toBe(1);
    // The API cleared its cookie.
    expect((await context.cookies(platform.apiUrl)).some((cookie) => cookie.name === 'session_key')).toBe(false);

    const after = await fetch(`${platform.apiUrl}/auth/me`, { headers: { 'X-Session-Key': oldKey } });
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({ code: 401, error: 'Unauthorized' });
  });

  test('no page of the run logged a console error or threw', () => {
    expect(problemReports.flatMap((report) => report())).toEqual([]);
  });

  test('the ref code reached the user record, with the saved website', async () => {
    await browser.close();
    expect(await platform.stop('SIGINT')).toBe(0);
    const user = await readStoppedPlatformDatabase(dataDir, 'auth', (db) =>
      db.collection('users').findOne({ email: person.email }),
    );
    expect(user).toMatchObject({ email: person.email, ref_code: REF_CODE, site_url: SITE_URL });
  });
});
