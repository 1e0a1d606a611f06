import type { ServiceIdentity } from '@productgen/service-kit';

/**
 * A signed service token lives 60 s (service-kit) and names only this process and the user, nothing of the request,
 * so signing one per forwarded request (an HMAC and a JWT encoding each, on every call) bought nothing. One is
 * reused for REUSE_MS: a service receiving it still has at least 40 s of its lifetime to check it in.
 */
export const REUSE_MS = 20_000;
const MAX_USERS = 10_000;

export function reusingServiceTokens(
  identity: ServiceIdentity,
  options: { reuseMs?: number; maxUsers?: number; now?: () => number } = {},
): ServiceIdentity {
  const reuseMs = options.reuseMs ?? REUSE_MS;
  const maxUsers = options.maxUsers ?? MAX_USERS;
  const now = options.now ?? Date.now;
  /** By user id ('' for none); concurrent requests of one user share one signing. */
  const tokens = new Map<string, { token: Promise<string>; until: number }>();
  return {
    sign(userId) {
      const key = userId ?? '';
      const time = now();
      const held = tokens.get(key);
      if (held && held.until > time) return held.token;
      tokens.delete(key); // re-inserted below, so the map stays oldest first
      if (tokens.size >= maxUsers) {
        for (const [oldest] of tokens) {
          tokens.delete(oldest);
          break;
        }
      }
      const token = identity.sign(userId);
      tokens.set(key, { token, until: time + reuseMs });
      token.catch(() => {
        if (tokens.get(key)?.token === token) tokens.delete(key);
      });
      return token;
    },
    verify: (token) => identity.verify(token),
  };
}
