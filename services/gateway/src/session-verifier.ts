import { authInternalRoutes } from '@productgen/contracts';
import { AppError, createInternalApiClient, type Logger, type ServiceIdentity } from '@productgen/service-kit';
import { sessionDigest, type SessionCache } from './domain/session';

export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

export interface SessionVerifierOptions {
  authUrl: string;
  fetchImpl: FetchLike;
  timeoutMs: number;
  cache: SessionCache;
  logger: Logger;
  identity: ServiceIdentity;
}

export interface SessionVerifier {
  /** The user id of a valid key, undefined for an invalid one; throws a 503 AppError when auth cannot answer. */
  verify(sessionKey: string): Promise<string | undefined>;
  /** Forget a key at once (logout). */
  evict(sessionKey: string): void;
  /** Forget a session named by its digest (session.revoked). A check of it already running is not remembered. */
  evictDigest(digest: string): void;
}

export const SERVICE_UNAVAILABLE_MESSAGE = 'Service temporarily unavailable';

/** Asks auth's internal endpoint, behind the short cache; concurrent checks of one key share one call. */
export function createSessionVerifier(options: SessionVerifierOptions): SessionVerifier {
  const { cache, logger } = options;
  const auth = createInternalApiClient(authInternalRoutes, {
    baseUrl: options.authUrl,
    target: 'auth',
    timeoutMs: options.timeoutMs,
    fetchImpl: options.fetchImpl,
    identity: options.identity,
  });
  /** Checks running now, by key digest (the name a revocation gives). */
  const inFlight = new Map<string, Promise<string | undefined>>();

  async function askAuth(sessionKey: string): Promise<string | undefined> {
    const startTicket = cache.ticket();
    let userId: string;
    try {
      ({ userId } = await auth.verifySession({ headers: { 'x-session-key': sessionKey } }));
    } catch (error) {
      if (error instanceof AppError && error.status === 401) {
        // Auth says no (also to a check made in the background while the key was still cached): forget it now.
        cache.evict(sessionKey);
        return undefined;
      }
      // Unreachable, slow or answering outside the contract: the caller cannot be checked now.
      logger.warn({ err: error, target: 'auth' }, 'session verification failed');
      throw AppError.serviceUnavailable(SERVICE_UNAVAILABLE_MESSAGE, { target: 'auth' });
    }
    cache.set(sessionKey, userId, startTicket);
    return userId;
  }

  /** Later requests start a check of their own; the tombstone keeps a running one's answer out of the cache. */
  function forget(digest: string): void {
    cache.evictDigest(digest);
    inFlight.delete(digest);
  }

  function check(sessionKey: string): Promise<string | undefined> {
    const digest = sessionDigest(sessionKey);
    let pending = inFlight.get(digest);
    if (!pending) {
      pending = askAuth(sessionKey).finally(() => {
        if (inFlight.get(digest) === pending) inFlight.delete(digest);
      });
      inFlight.set(digest, pending);
    }
    return pending;
  }

  return {
    verify(sessionKey) {
      const cached = cache.get(sessionKey);
      if (cached) {
        // A session in use is checked again half-way through its entry, in the background: its requests do not all
        // stop for auth's answer when the entry ends (under load that answer takes seconds). The entry still lives
        // no longer than its TTL after auth's last yes, and a revocation still removes it at once.
        if (cache.isHalfway(sessionKey)) check(sessionKey).catch(() => undefined);
        return Promise.resolve(cached);
      }
      return check(sessionKey);
    },
    evict: (sessionKey) => forget(sessionDigest(sessionKey)),
    evictDigest: forget,
  };
}
