import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LoopbackServers } from '@productgen/test-kit';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { startPlatformProcess, type PlatformProcess } from '@productgen/test-kit/platform-process';
import { creditsLink, sessionKeyOf, signInThroughDevDialog } from '../support/platform-ui';

// The session key as Chromium keeps it after a sign-in on `npm start`: the API's HttpOnly cookie, which no page
// script reads, and which another page's request cannot use to change anything.
jest.setTimeout(240_000);

const person = { email: 'cora.cookie@example.com', givenName: 'Cora', familyName: 'Cookie' };

interface FormElement {
  method: string;
  action: string;
  enctype: string;
  name: string;
  value: string;
  appendChild(child: FormElement): void;
  submit(): void;
}

interface FormDocument {
  createElement(tag: string): FormElement;
  body: { appendChild(child: FormElement): void };
}

interface PageGlobals {
  document: { cookie: string };
  localStorage: { length: number; key(index: number): string | null; getItem(key: string): string | null };
}

let dataDir: string;
let platform: PlatformProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let sessionKey: string;
const pages = new LoopbackServers();

/** Whether the API still says the user never answered the referral question. */
async function referralFormUnseen(): Promise<boolean> {
  const answer = await fetch(`${platform.apiUrl}/hear-about-source/has-seen`, {
    headers: { 'X-Session-Key': sessionKey },
  });
  return ((await answer.json()) as { hasSeen: boolean }).hasSeen === false;
}

/**
 * A page elsewhere that sends the signed-in user's browser to the API with a state change, the way a forged request
 * does: a form posting a JSON-looking text body (no preflight), so the browser adds every cookie SameSite allows.
 */
async function forgedRequestFrom(origin: string): Promise<number> {
  const attacker = await context.newPage();
  try {
    await attacker.goto(`${origin}/`);
    const answer = attacker.waitForResponse((response) => response.url() === `${platform.apiUrl}/hear-about-source`);
    await attacker.evaluate((target) => {
      const doc = (globalThis as unknown as { document: FormDocument }).document;
      const form = doc.createElement('form');
      form.method = 'POST';
      form.action = target;
      form.enctype = 'text/plain';
      const field = doc.createElement('input');
      // text/plain sends name=value: together a JSON body {"source":"Forged","pad":"="}.
      field.name = '{"source":"Forged","pad":"';
      field.value = '"}';
      form.appendChild(field);
      doc.body.appendChild(form);
      form.submit();
    }, `${platform.apiUrl}/hear-about-source`);
    return (await answer).status();
  } finally {
    await attacker.close();
  }
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'productgen-e2e-session-cookie-'));
  platform = await startPlatformProcess({ dataDir, startTimeoutMs: 150_000 });
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  await page.goto(`${platform.webUrl}/`);
  await signInThroughDevDialog(page, person);
  await creditsLink(page, 10).waitFor();
  sessionKey = await sessionKeyOf(page, platform.apiUrl);
});

afterAll(async () => {
  await browser?.close();
  await pages.close();
  await platform?.stop('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

test('the session cookie is HttpOnly, SameSite=Lax, host-only and not Secure on plain http', async () => {
  const cookies = (await context.cookies(platform.apiUrl)).filter((cookie) => cookie.name === 'session_key');
  expect(cookies).toHaveLength(1);
  const [cookie] = cookies;
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe('Lax');
  expect(cookie?.secure).toBe(false);
  expect(cookie?.path).toBe('/');
  // Host-only: set without Domain, so it belongs to the very host the platform was opened at.
  expect(cookie?.domain).toBe(new URL(platform.apiUrl).hostname);
  expect(cookie?.expires).toBeGreaterThan(Date.now() / 1000);
});

test('no page script can read the session key: not in document.cookie, not in storage', async () => {
  const seen = await page.evaluate(() => {
    const globals = globalThis as unknown as PageGlobals;
    const stored: string[] = [];
    for (let index = 0; index < globals.localStorage.length; index += 1) {
      const key = globals.localStorage.key(index);
      if (key !== null) stored.push(`${key}=${globals.localStorage.getItem(key) ?? ''}`);
    }
    return { cookie: globals.document.cookie, stored };
  });
  expect(seen.cookie).not.toContain('session_key');
  expect(seen.cookie).not.toContain(sessionKey);
  expect(seen.stored.filter((entry) => entry.includes(sessionKey) || entry.startsWith('session_key='))).toEqual([]);
  // Still signed in: every call carries the cookie.
  await page.reload();
  await creditsLink(page, 10).waitFor();
});

test('a state change sent from another site, or another port of the same site, is refused (403)', async () => {
  const attackerPage = await pages.listen((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>elsewhere</title>');
  });
  const port = new URL(attackerPage).port;
  // 127.0.0.1 is another site than localhost; localhost on another port is the same site, where Lax cookies go along.
  expect(await forgedRequestFrom(`http://127.0.0.1:${port}`)).toBe(403);
  expect(await forgedRequestFrom(`http://localhost:${port}`)).toBe(403);
  expect(await referralFormUnseen()).toBe(true);
});
