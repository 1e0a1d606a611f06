import type { Page } from 'playwright-core';

/** The in-page store the recorder writes to; the callbacks run in Chromium but are type-checked without the DOM. */
interface RecorderGlobals {
  pgTextHistories?: Record<string, string[]>;
  document: {
    body: unknown;
    querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }>;
  };
  MutationObserver: new (callback: () => void) => {
    observe(target: unknown, options: { subtree: boolean; childList: boolean; characterData: boolean }): void;
  };
}

/**
 * Starts recording every text the elements matching `selector` show, in order, without repeats in a row. A
 * MutationObserver reads them after each DOM change, so short-lived states (a "Saving..." that lasts 50 ms, a
 * progress text between two polls) are caught where polling from the test would miss them. Lives until the next
 * page load. The returned function reads the history so far.
 */
export async function recordTextHistory(page: Page, selector: string): Promise<() => Promise<string[]>> {
  const key = await page.evaluate((watched) => {
    const globals = globalThis as unknown as RecorderGlobals;
    const histories = (globals.pgTextHistories ??= {});
    const id = `${watched}#${Object.keys(histories).length}`;
    const history: string[] = (histories[id] = []);
    const read = () => {
      for (const element of Array.from(globals.document.querySelectorAll(watched))) {
        const text = element.textContent?.trim() ?? '';
        if (text && history[history.length - 1] !== text) history.push(text);
      }
    };
    new globals.MutationObserver(read).observe(globals.document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    });
    read();
    return id;
  }, selector);
  return () =>
    page.evaluate((id) => [...((globalThis as unknown as RecorderGlobals).pgTextHistories?.[id] ?? [])], key);
}
