import type { ApiRoute } from '@productgen/contracts';
import { ipKeyGenerator } from 'express-rate-limit';
import { sessionDigest } from './session';

/**
 * Bucket of a client address. IPv6 clients are grouped by their /56 network: one household or host usually
 * owns a whole prefix and could otherwise rotate addresses to escape the limit.
 */
export function ipBucket(ip: string | undefined): string {
  return `ip:${ipKeyGenerator(ip ?? 'unknown')}`;
}

/** Bucket of a session: by digest, so the limiter's store never holds a usable key. */
export function sessionBucket(sessionKey: string): string {
  return `session:${sessionDigest(sessionKey)}`;
}

/** Sign-in gets its own, stricter per-IP bucket: it is where credential stuffing and token replay aim. */
export function isSignInRoute(route: ApiRoute | undefined): boolean {
  return route?.id === 'authGoogle';
}

/** Seconds until a limited client may try again, for the 429 message (at least 1). */
export function secondsUntil(resetTime: Date | undefined, now: number): number {
  if (!resetTime) return 60;
  return Math.max(1, Math.ceil((resetTime.getTime() - now) / 1000));
}

export function tooManyRequestsMessage(seconds: number, signIn: boolean): string {
  const wait = seconds === 1 ? 'a second' : seconds >= 55 && seconds <= 60 ? 'a minute' : `${seconds} seconds`;
  return signIn
    ? `Too many sign-in attempts. Please wait ${wait} and try again.`
    : `Too many requests, please slow down and try again in ${wait}.`;
}
