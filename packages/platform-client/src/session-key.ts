import type { KeyValueStorage } from './browser-env';
import { removeCookie } from './cookies';

/**
 * The session key's name: the HttpOnly cookie the API sets at sign-in and clears at logout. Page scripts can neither
 * read nor write it, so an injected script cannot carry the key away; requests send it with `credentials: 'include'`.
 */
export const SESSION_KEY_NAME = 'session_key';

/**
 * A note in storage that this browser signed in, holding no secret: what the page shows before the current-user check
 * answers (the cookie itself is out of the page's reach), and what other tabs hear about through the storage event.
 */
export const SIGNED_IN_HINT_NAME = 'signed_in';

/** Remembers whether this browser holds a session; the server's answer to the current-user check decides. */
export class SessionHint {
  constructor(private readonly storage: KeyValueStorage) {
    // Before the API set the cookie, the page kept the key in script-readable places: forget those copies.
    this.remove(SESSION_KEY_NAME);
    removeCookie(SESSION_KEY_NAME);
  }

  isSignedIn(): boolean {
    try {
      return this.storage.getItem(SIGNED_IN_HINT_NAME) === 'true';
    } catch {
      return false;
    }
  }

  set(): void {
    try {
      this.storage.setItem(SIGNED_IN_HINT_NAME, 'true');
    } catch {
      // Storage can be disabled (private browsing, quota): the cookie still carries the session.
    }
  }

  clear(): void {
    this.remove(SIGNED_IN_HINT_NAME);
  }

  private remove(name: string): void {
    try {
      this.storage.removeItem(name);
    } catch {
      // See set(): nothing to clear when storage is unavailable.
    }
  }
}
