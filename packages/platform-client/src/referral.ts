import { readCookie, writeCookie } from './cookies';

const REFERRAL_COOKIE_DAYS = 30;
// A referral code comes from an untrusted URL; anything longer than this is not a real code.
const MAX_REFERRAL_CODE_LENGTH = 128;

/** SPEC §3: `{product}_ref_code`, e.g. `productgen_ref_code`. */
export function referralCookieName(productName: string): string {
  return `${productName.toLowerCase().replace(/[^a-z0-9]+/g, '')}_ref_code`;
}

/** Stores the `ref` query parameter of `url` (path /, 30 days) and returns it; null when absent. */
export function captureReferralFromUrl(productName: string, url: string): string | null {
  let code: string | null;
  try {
    code = new URL(url).searchParams.get('ref');
  } catch {
    return null;
  }
  code = code?.trim().slice(0, MAX_REFERRAL_CODE_LENGTH) ?? null;
  if (!code) return null;
  writeCookie(referralCookieName(productName), code, { days: REFERRAL_COOKIE_DAYS });
  return code;
}

export function readReferralCode(productName: string): string | null {
  return readCookie(referralCookieName(productName)) ?? null;
}
