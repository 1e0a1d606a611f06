import type { Page } from 'playwright-core';

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
