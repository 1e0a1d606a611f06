import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { SESSION_KEY_STORAGE_NAME } from '@productgen/contracts';
import { parse as parseCookies } from 'cookie';

/** Real keys are 256-bit tokens; anything far longer is junk and is not sent on to auth. */
const MAX_SESSION_KEY_LENGTH = 512;

function usableKey(value: string | undefined): string | undefined {
  const key = value?.trim();
  return key && key.length <= MAX_SESSION_KEY_LENGTH ? key : undefined;
}

/** Where a request's session key came from: a browser's cookie, or the header non-browser clients send. */
export type SessionKeySource = 'header' | 'cookie';

export interface PresentedSession {
  key: string;
  source: SessionKeySource;
}

/**
 * The session key a request presents: the X-Session-Key header (API clients outside a browser), or the HttpOnly
 * `session_key` cookie the gateway sets at sign-in (the web app, its download links included). The header wins
 * when both are present.
 */
export function presentedSession(headers: IncomingHttpHeaders): PresentedSession | undefined {
  const header = headers['x-session-key'];
  const fromHeader = usableKey(Array.isArray(header) ? header[0] : header);
  if (fromHeader) return { key: fromHeader, source: 'header' };
  if (!headers.cookie) return undefined;
  const fromCookie = usableKey(parseCookies(headers.cookie)[SESSION_KEY_STORAGE_NAME]);
  return fromCookie ? { key: fromCookie, source: 'cookie' } : undefined;
}

/**
 * Keys are kept (and rate-limited) by digest, so raw credentials never sit in the gateway's maps. The digest is the
 * one auth stores and names a revoked session by in session.revoked (hex SHA-256), so an announced revocation finds
 * its cache entry.
 */
export function sessionDigest(sessionKey: string): string {
  return createHash('sha256').update(sessionKey, 'utf8').digest('hex');
}

interface CachedSession {
  userId: string;
  expiresAt: number;
}

export interface SessionCacheOptions {
  ttlMs: number;
  maxEntries: number;
  /** How long an eviction blocks the answers of verifications that were already running (their longest time). */
  revocationWindowMs: number;
  now?: () => number;
}

/**
 * Short-lived memory of verified session keys. An eviction (logout) also leaves a tombstone, so a verification
 * that started before the logout and answers after it cannot put the revoked key back.
 */
export class SessionCache {
  private readonly entries = new Map<string, CachedSession>();
  /** digest → ticket of the eviction, with the time it stops mattering. */
  private readonly tombstones = new Map<string, { ticket: number; until: number }>();
  private lastTicket = 0;
  private readonly now: () => number;

  constructor(private readonly options: SessionCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Taken when a verification starts; `set` compares it with later evictions. */
  ticket(): number {
    this.lastTicket += 1;
    return this.lastTicket;
  }

  get(sessionKey: string): string | undefined {
    const digest = sessionDigest(sessionKey);
    const entry = this.entries.get(digest);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(digest);
      return undefined;
    }
    return entry.userId;
  }

  /** Whether a key's entry has lived half its time: a check started now renews it before anyone waits for one. */
  isHalfway(sessionKey: string): boolean {
    const entry = this.entries.get(sessionDigest(sessionKey));
    return entry !== undefined && entry.expiresAt - this.now() <= this.options.ttlMs / 2;
  }

  /** Remembers a verification that started at `startTicket`, unless the key was evicted since. */
  set(sessionKey: string, userId: string, startTicket: number): void {
    if (this.options.ttlMs <= 0) return;
    const digest = sessionDigest(sessionKey);
    const tombstone = this.tombstones.get(digest);
    if (tombstone && tombstone.ticket > startTicket) return;
    this.entries.delete(digest); // re-insert so Map order stays oldest-first
    this.entries.set(digest, { userId, expiresAt: this.now() + this.options.ttlMs });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  evict(sessionKey: string): void {
    this.evictDigest(sessionDigest(sessionKey));
  }

  /** Forgets a session named by its digest (a revocation announced by auth). */
  evictDigest(digest: string): void {
    this.entries.delete(digest);
    this.pruneTombstones();
    this.tombstones.set(digest, { ticket: this.ticket(), until: this.now() + this.options.revocationWindowMs });
  }

  get size(): number {
    return this.entries.size;
  }

  private pruneTombstones(): void {
    const now = this.now();
    for (const [digest, tombstone] of this.tombstones) {
      if (tombstone.until <= now) this.tombstones.delete(digest);
    }
  }
}
