import { AppError, currentRequestId, injectTraceHeaders, type Logger } from '@productgen/service-kit';
import { z } from 'zod';
import { SessionCache } from './domain/session';

export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

export interface SessionVerifierOptions {
  authUrl: string;
  fetchImpl: FetchLike;
  timeoutMs: number;
  cache: SessionCache;
  logger: Logger;
}

export interface SessionVerifier {
  /** The user id of a valid key, undefined for an invalid one; throws a 503 AppError when auth cannot answer. */
  verify(sessionKey: string): Promise<string | undefined>;
  /** Forget a key at once (logout). */
  evict(sessionKey: string): void;
}

const verifyAnswerSchema = z.object({ userId: z.string().min(1) });

export const SERVICE_UNAVAILABLE_MESSAGE = 'Service temporarily unavailable';

/** Asks auth's internal endpoint, behind the short cache; concurrent checks of one key share one call. */
export function createSessionVerifier(options: SessionVerifierOptions): SessionVerifier {
  const { cache, logger } = options;
  const verifyUrl = new URL(
    'internal/sessions/verify',
    options.authUrl.endsWith('/') ? options.authUrl : `${options.authUrl}/`,
  );
  const inFlight = new Map<string, Promise<string | undefined>>();

  async function askAuth(sessionKey: string): Promise<string | undefined> {
    const startTicket = cache.ticket();
    const headers = injectTraceHeaders<Record<string, string>>({
      'x-session-key': sessionKey,
      accept: 'application/json',
    });
    const requestId = currentRequestId();
    if (requestId) headers['x-request-id'] = requestId;
    let response: Response;
    let answer: unknown;
    try {
      response = await options.fetchImpl(verifyUrl, { headers, signal: AbortSignal.timeout(options.timeoutMs) });
      answer = response.status === 200 ? await response.json() : await response.body?.cancel();
    } catch (error) {
      logger.warn({ err: error, target: 'auth' }, 'session verification failed: auth unreachable');
      throw AppError.serviceUnavailable(SERVICE_UNAVAILABLE_MESSAGE, { target: 'auth' });
    }
    if (response.status === 401) return undefined;
    const parsed = response.status === 200 ? verifyAnswerSchema.safeParse(answer) : undefined;
    if (!parsed?.success) {
      logger.warn({ status: response.status, target: 'auth' }, 'session verification failed: unexpected answer');
      throw AppError.serviceUnavailable(SERVICE_UNAVAILABLE_MESSAGE, { target: 'auth', status: response.status });
    }
    cache.set(sessionKey, parsed.data.userId, startTicket);
    return parsed.data.userId;
  }

  return {
    verify(sessionKey) {
      const cached = cache.get(sessionKey);
      if (cached) return Promise.resolve(cached);
      let pending = inFlight.get(sessionKey);
      if (!pending) {
        pending = askAuth(sessionKey).finally(() => {
          if (inFlight.get(sessionKey) === pending) inFlight.delete(sessionKey);
        });
        inFlight.set(sessionKey, pending);
      }
      return pending;
    },
    evict(sessionKey) {
      cache.evict(sessionKey);
      inFlight.delete(sessionKey);
    },
  };
}
