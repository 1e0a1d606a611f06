import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { createLogger } from '@productgen/service-kit';
import { LoopbackServers } from '@productgen/test-kit';
import {
  createMicrofrontendHost,
  createShellHost,
  microfrontendHostConfigSchema,
  shellHostConfigSchema,
} from '@productgen/web-host';
import { findMicrofrontendBuilds } from '../../packages/devstack/src/web';
import { collectPageProblems, moveMouse, waitForReactElement } from '../support/browser';
import { repoRoot } from '@productgen/test-kit/platform-process';
import { platformInChromium } from '../support/platform-suite';
import { signInThroughDevDialog } from '../support/platform-ui';

// The web origin's Content-Security-Policy in Chromium, on the platform as `npm start` runs it: every kind of
// page (prerendered marketing pages, the shell's bootstrap, module federation remotes, the dev sign-in calling the
// API, a tool page loading its model in a worker with WASM) works without one policy violation, while script
// injected into a page (an inline script, an event-handler attribute) is refused. Then the same pages through
// distributed mode's shell host, every microfrontend served by its own host behind it.
jest.setTimeout(300_000);

/** What the page's init script records (the node project's types have no DOM). */
interface ViolationGlobals {
  e2eViolations: string[];
  e2eInjectedRan?: boolean;
  document: {
    addEventListener(type: string, listener: (event: ViolationEvent) => void): void;
    createElement(tag: string): { textContent: string; innerHTML: string };
    body: { appendChild(node: unknown): void };
  };
}

interface ViolationEvent {
  effectiveDirective: string;
  blockedURI: string;
  sourceFile: string;
}

const suite = platformInChromium('csp');
let context: BrowserContext;
let page: Page;
let pageProblems: () => string[];
/** Chromium's console messages about the security headers themselves (a malformed directive, an unknown feature). */
const headerMessages: string[] = [];

/** Records every securitypolicyviolation event of every document the page opens. */
function recordViolations(): void {
  const globals = globalThis as unknown as ViolationGlobals;
  globals.e2eViolations = [];
  globals.document.addEventListener('securitypolicyviolation', (event) =>
    globals.e2eViolations.push(`${event.effectiveDirective} blocked ${event.blockedURI} (${event.sourceFile})`),
  );
}

function violations(onPage: Page = page): Promise<string[]> {
  return onPage.evaluate(() => (globalThis as unknown as ViolationGlobals).e2eViolations);
}

/** The model loader's ready line (or its error) on a tool page. */
async function waitForToolModel(onPage: Page): Promise<string> {
  await moveMouse(onPage);
  const state = onPage.getByTestId('model-ready').or(onPage.getByRole('alert'));
  await state.waitFor({ timeout: 240_000 });
  return state.innerText();
}

const PAGES_WITH_THEIR_APP = [
  ['the landing page', '/', '#pg-app-mfe_marketing h1'],
  ['a prerendered category page', '/fashion-product-photos', '#pg-app-mfe_marketing h1'],
  ['the pricing page', '/pricing', '#pg-app-mfe_dashboard h1'],
  ['a legal page', '/privacy', '#pg-app-mfe_marketing h1'],
];

beforeAll(async () => {
  context = await suite.browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(recordViolations);
  page = await context.newPage();
  // A visitor's current-user check is answered 401 on purpose (SPEC §7: /auth/me gives false on 401).
  pageProblems = collectPageProblems(page, [{ url: `${suite.platform.apiUrl}/auth/me`, status: 401 }]);
  page.on('console', (message) => {
    if (/Content.Security.Policy|Permissions-Policy|X-Frame-Options|Referrer.Policy/i.test(message.text())) {
      headerMessages.push(`${message.type()}: ${message.text()}`);
    }
  });
});

afterAll(async () => {
  await context?.close();
});

test.each(PAGES_WITH_THEIR_APP)('%s runs its apps with no policy violation', async (_name, pathname, appHeading) => {
  const response = await page.goto(`${suite.platform.webUrl}${pathname}`);
  expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self' 'nonce-/);
  await moveMouse(page);
  await waitForReactElement(page, appHeading);
  expect(await violations()).toEqual([]);
});

test('signing in calls the API from the page with no policy violation', async () => {
  await page.goto(`${suite.platform.webUrl}/`);
  await signInThroughDevDialog(page, { email: 'csp.check@example.com', givenName: 'Cora', familyName: 'Policy' });
  await page
    .locator('#pg-top-bar')
    .getByRole('link', { name: /credits/ })
    .waitFor();
  expect(await violations()).toEqual([]);
});

test('a tool page loads its model in a worker and compiles WebAssembly with no policy violation', async () => {
  await page.goto(`${suite.platform.webUrl}/image-upscaler`);
  expect(await waitForToolModel(page)).toContain('AI ready');
  expect(await violations()).toEqual([]);
});

test('script injected into a page is refused and reported', async () => {
  await page.goto(`${suite.platform.webUrl}/privacy`);
  await moveMouse(page);
  await waitForReactElement(page, '#pg-app-mfe_marketing h1');
  const ran = await page.evaluate(() => {
    const globals = globalThis as unknown as ViolationGlobals;
    const script = globals.document.createElement('script');
    script.textContent = 'window.e2eInjectedRan = true;';
    globals.document.body.appendChild(script);
    const holder = globals.document.createElement('div');
    holder.innerHTML = '<img src="data:," onerror="window.e2eInjectedRan = true">';
    globals.document.body.appendChild(holder);
    return new Promise<boolean>((resolve) => setTimeout(() => resolve(Boolean(globals.e2eInjectedRan)), 500));
  });
  expect(ran).toBe(false);
  const refused = await violations();
  expect(refused).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^script-src-elem blocked inline/),
      expect.stringMatching(/^script-src-attr blocked inline/),
    ]),
  );
});

test('no console error and no uncaught exception besides the refused injection', () => {
  const unexpected = pageProblems().filter((problem) => !/Executing inline (script|event handler)/.test(problem));
  expect(unexpected).toEqual([]);
  // The browser understood every header: only the refused injection is mentioned.
  expect(headerMessages.filter((message) => !/Executing inline (script|event handler)/.test(message))).toEqual([]);
});

describe("distributed mode's shell host", () => {
  const servers = new LoopbackServers();
  let shellUrl: string;
  let distributedPage: Page;

  beforeAll(async () => {
    const logger = createLogger({ service: 'csp-e2e', level: 'silent' });
    const registry: Record<string, string> = {};
    const upstreams: string[] = [];
    for (const build of await findMicrofrontendBuilds(repoRoot)) {
      const config = microfrontendHostConfigSchema.parse({
        WEB_HOST_ROLE: 'microfrontend',
        STATIC_DIR: build.distDir,
        MFE_NAME: build.shortName,
        MFE_VERSION: build.version,
      });
      upstreams.push(`${build.shortName}=${await servers.listen(createMicrofrontendHost(config, logger))}`);
      registry[build.remoteName] = `/mfe/${build.shortName}/${build.version}/mf-manifest.json`;
    }
    const registryFile = path.join(suite.workDir, 'remotes.json');
    await writeFile(registryFile, JSON.stringify(registry));
    const shellConfig = shellHostConfigSchema.parse({
      WEB_HOST_ROLE: 'shell',
      STATIC_DIR: path.join(repoRoot, 'shell', 'dist'),
      REGISTRY_FILE: registryFile,
      MFE_UPSTREAMS: upstreams.join(','),
      // The API of the platform above: not a web origin it allows, so only what the policy decides is checked.
      API_PUBLIC_URL: suite.platform.apiUrl,
      DEV_IDENTITY_PROVIDER: 'true',
    });
    shellUrl = await servers.listen(createShellHost(shellConfig, logger));
    distributedPage = await context.newPage();
  });

  afterAll(async () => {
    await distributedPage?.close();
    await servers.close();
  });

  test.each(PAGES_WITH_THEIR_APP)('%s runs its apps with no policy violation', async (_name, pathname, appHeading) => {
    const response = await distributedPage.goto(`${shellUrl}${pathname}`);
    expect(response?.headers()['content-security-policy']).toContain(`connect-src 'self' ${suite.platform.apiUrl}`);
    await moveMouse(distributedPage);
    await waitForReactElement(distributedPage, appHeading);
    expect(await violations(distributedPage)).toEqual([]);
  });

  test('a tool page loads its model through the shell host with no policy violation', async () => {
    await distributedPage.goto(`${shellUrl}/image-upscaler`);
    expect(await waitForToolModel(distributedPage)).toContain('AI ready');
    expect(await violations(distributedPage)).toEqual([]);
  });
});
