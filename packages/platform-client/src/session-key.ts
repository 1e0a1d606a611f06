import type { KeyValueStorage } from './browser-env';
import { readCookie, removeCookie, writeCookie } from './cookies';

/** SPEC §3: the session key lives in a cookie and in storage, both under this name. */
export const SESSION_KEY_NAME = 'session_key';

/** Keeps the session key in its two homes. Signed in means the cookie is present (SPEC §4). */
export class SessionKeyStore {
  constructor(
    private readonly storage: KeyValueStorage,
    private readonly cookieDays: number,
  ) {}

  get(): string | null {
    return readCookie(SESSION_KEY_NAME) ?? this.readStorage();
  }

  hasCookie(): boolean {
    return readCookie(SESSION_KEY_NAME) !== undefined;
  }

  set(key: string): void {
    writeCookie(SESSION_KEY_NAME, key, { days: this.cookieDays });
    try {
      this.storage.setItem(SESSION_KEY_NAME, key);
    } catch {
      // Storage can be disabled (private browsing, quota): the cookie alone still carries the session.
    }
  }

  clear(): void {
    removeCookie(SESSION_KEY_NAME);
    try {
      this.storage.removeItem(SESSION_KEY_NAME);
    } catch {
      // See set(): nothing more to clear when storage is unavailable.
    }
  }

  private readStorage(): string | null {
    try {
      return this.storage.getItem(SESSION_KEY_NAME);
    } catch {
      return null;
    }
  }
}
