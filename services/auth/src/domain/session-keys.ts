import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes in base64url: 43 characters, no padding. */
const SESSION_KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A session's idle deadline moves at most this often, so busy clients do not write on every request. */
export const SESSION_TOUCH_INTERVAL_MS = 60 * 1000;

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

export interface SessionTimes {
  createdAt: Date;
  lastSeenAt: Date;
  idleExpiresAt: Date;
  absoluteExpiresAt: Date;
}

export function sessionPolicyFromDays(idleDays: number, absoluteDays: number): SessionPolicy {
  return { idleMs: idleDays * DAY_MS, absoluteMs: absoluteDays * DAY_MS };
}

/** A new 256-bit session key; only its hash is ever stored. */
export function generateSessionKey(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSessionKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Cheap pre-check so malformed keys never reach the database. */
export function isWellFormedSessionKey(key: unknown): key is string {
  return typeof key === 'string' && SESSION_KEY_PATTERN.test(key);
}

function earlier(a: Date, b: Date): Date {
  return a.getTime() <= b.getTime() ? a : b;
}

export function newSessionTimes(now: Date, policy: SessionPolicy): SessionTimes {
  const absoluteExpiresAt = new Date(now.getTime() + policy.absoluteMs);
  return {
    createdAt: now,
    lastSeenAt: now,
    idleExpiresAt: earlier(new Date(now.getTime() + policy.idleMs), absoluteExpiresAt),
    absoluteExpiresAt,
  };
}

/** A session is usable until the earlier of its idle and absolute deadlines. */
export function isSessionActive(times: Pick<SessionTimes, 'idleExpiresAt' | 'absoluteExpiresAt'>, now: Date): boolean {
  return now.getTime() < times.idleExpiresAt.getTime() && now.getTime() < times.absoluteExpiresAt.getTime();
}

/** The new idle deadline when the session was used at `now`, or undefined when it was touched less than a minute ago. */
export function touchedIdleExpiry(
  times: Pick<SessionTimes, 'lastSeenAt' | 'absoluteExpiresAt'>,
  now: Date,
  policy: SessionPolicy,
): Date | undefined {
  if (now.getTime() - times.lastSeenAt.getTime() < SESSION_TOUCH_INTERVAL_MS) return undefined;
  return earlier(new Date(now.getTime() + policy.idleMs), times.absoluteExpiresAt);
}
