import { SESSION_KEY_STORAGE_NAME } from '@productgen/contracts';
import { serialize } from 'cookie';
import { isAllowedWebOrigin } from './web-origins';

/*
 * The web app's session lives in a cookie only the gateway reads and writes: HttpOnly (no page script can read it, so
 * an injected script cannot carry the key away), SameSite=Lax, Secure on https, host-only (no Domain, so it works at
 * whatever name the platform is opened at: localhost, 127.0.0.1, a LAN name). API clients outside a browser keep
 * sending X-Session-Key.
 */

export interface SessionCookieOptions {
  /** The request came over https (Express `req.protocol`, which honours TRUST_PROXY). */
  secure: boolean;
  /** Lifetime of the cookie. */
  maxAgeSeconds: number;
}

/** Set-Cookie value carrying a fresh session key. */
export function sessionCookie(sessionKey: string, options: SessionCookieOptions): string {
  return serialize(SESSION_KEY_STORAGE_NAME, sessionKey, {
    httpOnly: true,
    secure: options.secure,
    sameSite: 'lax',
    path: '/',
    maxAge: options.maxAgeSeconds,
  });
}

/** Set-Cookie value that removes the session cookie (logout, a refused key). */
export function clearedSessionCookie(secure: boolean): string {
  return serialize(SESSION_KEY_STORAGE_NAME, '', {
    httpOnly: true,
    secure,
    sameSite: 'lax',
    path: '/',
    maxAge: 0,
    expires: new Date(0),
  });
}

/**
 * A browser sends Origin with every POST (sign-in is one), so a sign-in answer to a browser carries the key in the
 * cookie only, never in the body page scripts read. (Not Sec-Fetch-Mode: Node's fetch sends that one too.)
 */
export function isBrowserRequest(headers: { origin?: string }): boolean {
  return headers.origin !== undefined;
}

export const CROSS_SITE_REFUSAL_MESSAGE =
  'This request came from a page outside ProductGen, so it was refused. Please use ProductGen itself.';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface RequestOrigin {
  method: string;
  /** The Origin header. */
  origin: string | undefined;
  /** Sec-Fetch-Site (Fetch Metadata): same-origin, same-site, cross-site or none. */
  fetchSite: string | undefined;
  /** The Host the request was addressed to. */
  host: string | undefined;
}

/**
 * Cross-site request forgery check of a state change (any method but GET, HEAD and OPTIONS), whatever authenticates
 * it: the browser's Origin must be the API itself or one of the CORS allow-list's web origins. Without an Origin, a
 * browser's Sec-Fetch-Site must not say another origin sent it; a request with neither header does not come from a
 * browser page (API clients, the payment provider's webhook) and carries no cookie a browser added on its own.
 */
export function isStateChangeFromAllowedPage(request: RequestOrigin, webOrigins: readonly string[]): boolean {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return true;
  const { origin, fetchSite, host } = request;
  if (origin === undefined) return fetchSite !== 'cross-site' && fetchSite !== 'same-site';
  if (origin === 'null') return false; // sandboxed frames, data: pages, privacy-sensitive redirects
  if (host !== undefined && sameHost(origin, host)) return true;
  return isAllowedWebOrigin(origin, host, webOrigins);
}

function sameHost(origin: string, host: string): boolean {
  try {
    return new URL(origin).host === new URL(`http://${host}`).host;
  } catch {
    return false;
  }
}
