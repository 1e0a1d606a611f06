import { stat, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { publishMicrofrontend, updateRegistryEntry } from '@productgen/devstack';
import { collectPageProblems, launchBrowser, logRequests, type RequestLog } from '../support/browser';
import { buildMicrofrontendVariant } from '../support/microfrontend-variant';
import { repoRoot, startPlatformProcess, type PlatformProcess } from '@productgen/test-kit/platform-process';

// DESIGN §3 / issue 3 part 7: deploying a microfrontend is "publish a build under a new version path, change its
// registry entry". The shell keeps running, is never rebuilt, and serves the new version on the next page load.
jest.setTimeout(180_000);

const NEW_VERSION = '0.2.0-e2e';
const NEW_MANIFEST = `/mfe/dashboard/${NEW_VERSION}/mf-manifest.json`;
const BUILD_ATTRIBUTE = 'data-mfe-dashboard-build';

let workDir: string;
let platform: PlatformProcess;
let browser: Browser;
let page: Page;
let requests: RequestLog;
let problems: () => string[];

/** Files a deployment must not touch: the shell's build and the workspace's own build. */
const untouched = [
  path.join(repoRoot, 'shell', 'dist', 'index.html'),
  path.join(repoRoot, 'mfe-dashboard', 'dist', 'mf-manifest.json'),
];

async function modificationTimes(): Promise<number[]> {
  return Promise.all(untouched.map(async (file) => (await stat(file)).mtimeMs));
}

function requestedPaths(since: number): string[] {
  return requests.since(since).map((url) => new URL(url).pathname);
}

/** Reloads /settings and waits until the dashboard microfrontend has rendered it. */
async function reloadSettings(): Promise<string[]> {
  const mark = requests.mark();
  await page.reload();
  await page.locator('#pg-app-mfe_dashboard h1').filter({ hasText: 'Settings' }).waitFor();
  return requestedPaths(mark);
}

async function readRegistry(): Promise<Record<string, string>> {
  return (await (await fetch(`${platform.webUrl}/remotes.json`)).json()) as Record<string, string>;
}

function shellScripts(paths: string[]): string[] {
  return paths.filter((pathname) => /^\/main\.[0-9a-f]+\.js$/.test(pathname));
}

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'productgen-deploy-'));
  platform = await startPlatformProcess({ dataDir: path.join(workDir, 'data') });
  browser = await launchBrowser();
  page = await browser.newPage();
  // The signed-out /settings asks the visitor to log in; its current-user check answers 401 on purpose.
  problems = collectPageProblems(page, [{ url: `${platform.apiUrl}/auth/me`, status: 401 }]);
  requests = logRequests(page);
});

afterAll(async () => {
  await browser?.close();
  await platform?.stop('SIGKILL');
  await rm(workDir, { recursive: true, force: true });
});

test('a changed mfe-dashboard published under a new version is served by the running shell, and can be rolled back', async () => {
  const timesBefore = await modificationTimes();
  const registryBefore = await readRegistry();
  const originalManifest = registryBefore.mfe_dashboard ?? '';
  const originalBase = originalManifest.replace(/mf-manifest\.json$/, '');
  expect(originalManifest).toMatch(/^\/mfe\/dashboard\/[^/]+\/mf-manifest\.json$/);
  await page.goto(`${platform.webUrl}/settings`);
  await page.getByText('Please log in to access settings').waitFor();
  const before = requestedPaths(0);
  expect(before).toContain(originalManifest);
  const [shellScript] = shellScripts(before);
  expect(shellScript).toBeDefined();
  expect(await page.getAttribute('html', BUILD_ATTRIBUTE)).toBeNull();

  // A new build of the dashboard whose exposed app marks the page, built outside the repository.
  const buildDir = path.join(workDir, 'mfe-dashboard-build');
  await buildMicrofrontendVariant({
    workspace: 'mfe-dashboard',
    outputDir: buildDir,
    module: 'src/app.tsx',
    append: `document.documentElement.setAttribute(${JSON.stringify(BUILD_ATTRIBUTE)}, ${JSON.stringify(NEW_VERSION)});`,
  });
  const webRoot = path.join(workDir, 'data', 'web');
  await publishMicrofrontend(webRoot, {
    remoteName: 'mfe_dashboard',
    shortName: 'dashboard',
    version: NEW_VERSION,
    distDir: buildDir,
  });
  expect(await readRegistry()).toEqual({ ...registryBefore, mfe_dashboard: NEW_MANIFEST });

  const afterDeploy = await reloadSettings();
  await page.waitForSelector(`html[${BUILD_ATTRIBUTE}="${NEW_VERSION}"]`, { state: 'attached' });
  expect(afterDeploy).toContain(NEW_MANIFEST);
  expect(
    afterDeploy.filter((pathname) => pathname.startsWith(`/mfe/dashboard/${NEW_VERSION}/`)).length,
  ).toBeGreaterThan(1);
  expect(afterDeploy.filter((pathname) => pathname.startsWith(originalBase))).toEqual([]);
  // The same shell build, from the same process, served it.
  expect(shellScripts(afterDeploy)).toEqual([shellScript]);
  expect(platform.child.exitCode).toBeNull();

  // Rolling back is the same one-entry change, to the version still published.
  await updateRegistryEntry(webRoot, 'mfe_dashboard', originalManifest);
  const afterRollback = await reloadSettings();
  expect(afterRollback).toContain(originalManifest);
  expect(afterRollback.filter((pathname) => pathname.startsWith(`/mfe/dashboard/${NEW_VERSION}/`))).toEqual([]);
  expect(await page.getAttribute('html', BUILD_ATTRIBUTE)).toBeNull();

  expect(await modificationTimes()).toEqual(timesBefore);
  expect(problems()).toEqual([]);
});
