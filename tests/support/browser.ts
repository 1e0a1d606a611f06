import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium: the tests never download a browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Launches headless Chromium for end-to-end tests. The flags keep it quiet and offline: no sandbox (containers),
 * no GPU, and none of the background calls home (updates, sync, QUIC probes) that would slow a loaded machine.
 */
export function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
      ...extraArgs,
    ],
  });
}

/** A response the page is expected to get, which Chromium nevertheless logs as a console error. */
export interface ExpectedFailedResource {
  url: string;
  status: number;
}

/**
 * Watches a page for its whole life and keeps everything that went wrong: console errors and uncaught exceptions,
 * each with the address it happened on. Chromium also logs every 4xx/5xx answer as a console error ("Failed to
 * load resource"); the ones listed in `expected` are answers the product gives on purpose and are not problems.
 */
export function collectPageProblems(page: Page, expected: readonly ExpectedFailedResource[] = []): () => string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const resource = message.location().url;
    const isExpected = expected.some(
      ({ url, status }) =>
        resource === url &&
        message.text().startsWith(`Failed to load resource: the server responded with a status of ${status} `),
    );
    if (!isExpected) problems.push(`console error on ${page.url()}: ${message.text()} (${resource})`);
  });
  page.on('pageerror', (error) =>
    problems.push(`uncaught exception on ${page.url()}: ${error.stack ?? error.message}`),
  );
  return () => [...problems];
}

/** Every URL the page requested, in order; `since(mark)` gives the ones after a mark taken with `mark()`. */
export interface RequestLog {
  all(): string[];
  mark(): number;
  since(mark: number): string[];
}

export function logRequests(page: Page): RequestLog {
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  return { all: () => [...urls], mark: () => urls.length, since: (mark) => urls.slice(mark) };
}

interface ElementGlobals {
  document: { querySelector(selector: string): object | null };
}

/**
 * Resolves once React has rendered or hydrated an element matching `selector`. Prerendered markup (the web origin
 * paints public pages before any script runs) is on screen earlier, but it is only the app once React owns it:
 * React keeps its fiber on the nodes it rendered or hydrated.
 */
export async function waitForReactElement(page: Page, selector: string): Promise<void> {
  await page.waitForFunction(ownedByReact, selector);
}

/** Whether React owns an element matching `selector` now (prerendered markup alone: false). */
export function isReactElement(page: Page, selector: string): Promise<boolean> {
  return page.evaluate(ownedByReact, selector);
}

/** Runs in the page: React keeps its fiber on the nodes it rendered or hydrated. */
function ownedByReact(css: string): boolean {
  const element = (globalThis as unknown as ElementGlobals).document.querySelector(css);
  return element !== null && Object.keys(element).some((key) => key.startsWith('__reactFiber'));
}

/** Mouse moves so far: each goes somewhere new, because Chromium sends no mousemove for a move that stays put. */
let mouseMoves = 0;

/**
 * A visitor's first input on a page: the mouse moved. On a prerendered public page the platform starts at the first
 * input, or only once the page has been left alone 5 s (shell/src/index.html): a test about the app, not about that
 * idle start, moves the mouse as a visitor would instead of waiting the 5 s out.
 */
export async function moveMouse(page: Page): Promise<void> {
  mouseMoves += 1;
  await page.mouse.move(2 + (mouseMoves % 64), 2 + (mouseMoves % 7));
}

/** An image as the page shows it: its address and its decoded width (0 when it did not load). */
export interface ShownImage {
  src: string;
  width: number;
}

interface ImageGlobals {
  document: {
    querySelectorAll(selector: string): ArrayLike<{ complete: boolean; naturalWidth: number; src: string }>;
  };
}

/**
 * What a user waits for before looking at pictures: `count` images matching `selector` are on the page and every
 * one has finished loading (or failed to). Answers them, so the caller asserts each one's address and width
 * (a failed image is complete with width 0, so the assertion names it rather than the wait timing out).
 */
export async function waitForImages(
  page: Page,
  selector: string,
  count: number,
  timeoutMs = 30_000,
): Promise<ShownImage[]> {
  await page.waitForFunction(
    ({ css, expected }) => {
      const images = Array.from((globalThis as unknown as ImageGlobals).document.querySelectorAll(css));
      return images.length === expected && images.every((image) => image.complete);
    },
    { css: selector, expected: count },
    { timeout: timeoutMs },
  );
  return page.evaluate(
    (css) =>
      Array.from((globalThis as unknown as ImageGlobals).document.querySelectorAll(css)).map((image) => ({
        src: image.src,
        width: image.naturalWidth,
      })),
    selector,
  );
}
