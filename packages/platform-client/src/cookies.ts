import Cookies from 'js-cookie';
import { hasDocument, pageIsHttps } from './browser-env';

export interface CookieWriteOptions {
  days: number;
  /** Defaults to whether the page itself is served over https. */
  secure?: boolean;
}

export function readCookie(name: string): string | undefined {
  return hasDocument() ? Cookies.get(name) : undefined;
}

export function writeCookie(name: string, value: string, { days, secure = pageIsHttps() }: CookieWriteOptions): void {
  if (!hasDocument()) return;
  Cookies.set(name, value, { expires: days, path: '/', sameSite: 'Lax', secure });
}

export function removeCookie(name: string): void {
  if (hasDocument()) Cookies.remove(name, { path: '/' });
}
