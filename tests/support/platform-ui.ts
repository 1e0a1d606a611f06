import type { Browser, BrowserContext, Page } from 'playwright-core';

/** A person for the built-in dev identity provider's sign-in dialog. */
export interface DevPerson {
  email: string;
  givenName: string;
  familyName: string;
}

/** The top bar's credit count ("10 credits"), a link to /pricing. */
export function creditsLink(page: Page, credits: number) {
  return page.locator('#pg-top-bar').getByRole('link', { name: `${credits} credits`, exact: true });
}

/** Signs in on a desktop page as a visitor does: "Join with Google" opens the dev identity provider's dialog. */
export async function signInThroughDevDialog(page: Page, person: DevPerson): Promise<void> {
  await page.locator('#pg-top-bar').getByRole('button', { name: 'Join with Google' }).click();
  const dialog = page.getByRole('dialog', { name: /Sign in/ });
  await dialog.getByLabel('Email').fill(person.email);
  await dialog.getByLabel('Given name').fill(person.givenName);
  await dialog.getByLabel('Family name').fill(person.familyName);
  await dialog.getByRole('button', { name: 'Sign in' }).click();
  await dialog.waitFor({ state: 'detached' });
}

/**
 * Buys a package as a signed-in user does: /pricing → Buy → the embedded dev checkout on the API origin → Pay →
 * back on the dashboard of the web origin the purchase started from.
 */
export async function buyThroughDevCheckout(
  page: Page,
  purchase: { webOrigin: string; apiOrigin: string; packageName: string; price: string },
): Promise<void> {
  await page.goto(`${purchase.webOrigin}/pricing`);
  await page.getByRole('button', { name: `Buy ${purchase.packageName}` }).click();
  await page.waitForURL((url) => url.origin === purchase.apiOrigin && url.pathname.startsWith('/dev-checkout/'));
  await page.getByRole('button', { name: `Pay ${purchase.price}` }).click();
  await page.waitForURL(
    (url) =>
      url.origin === purchase.webOrigin &&
      url.pathname === '/dashboard' &&
      url.searchParams.get('payment') === 'success',
  );
}

/**
 * The session key of a signed-in page, read as only the browser can: the API's HttpOnly `session_key` cookie (page
 * scripts cannot). Tests use it to ask the API as that user with X-Session-Key.
 */
export async function sessionKeyOf(page: Page, apiUrl: string): Promise<string> {
  const cookie = (await page.context().cookies(apiUrl)).find((candidate) => candidate.name === 'session_key');
  if (!cookie?.value) throw new Error(`the browser holds no session_key cookie for ${apiUrl}`);
  return cookie.value;
}

/**
 * Signs a browser context in with a key from the API, as a sign-in there leaves it: the API's HttpOnly session cookie
 * and the platform client's signed-in hint in storage.
 */
export async function signInBrowserContext(context: BrowserContext, apiUrl: string, sessionKey: string): Promise<void> {
  await context.addCookies([{ name: 'session_key', value: sessionKey, url: apiUrl, httpOnly: true, sameSite: 'Lax' }]);
  await context.addInitScript(() => {
    (globalThis as unknown as { localStorage: { setItem(key: string, value: string): void } }).localStorage.setItem(
      'signed_in',
      'true',
    );
  });
}

/** The signed-in desktop context's session (cookie and storage) opened on a phone, 390×844 with touch input. */
export async function sameSessionOnPhone(browser: Browser, desktop: BrowserContext): Promise<BrowserContext> {
  return browser.newContext({
    storageState: await desktop.storageState(),
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
}
