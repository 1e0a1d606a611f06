import type { IncomingHttpHeaders } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { WEB_ORIGIN_HEADER } from '@productgen/contracts';
import {
  AppError,
  injectTraceHeaders,
  SERVICE_TOKEN_HEADER,
  type Logger,
  type ServiceIdentity,
} from '@productgen/service-kit';
import type { Request, Response } from 'express';
import { Agent, request as undiciRequest } from 'undici';
import type { UpstreamOwner, UpstreamUrls } from './domain/routing';
import { SERVICE_UNAVAILABLE_MESSAGE } from './session-verifier';

/*
 * Forwarding to the owning services with undici (Node's own HTTP client): bodies stream both ways, a body the
 * gateway already read and validated is sent as the same bytes, and every wait is bounded.
 */

/** Connection-scoped headers (RFC 9110 §7.6.1) and the ones undici sets itself; never forwarded either way. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'expect',
]);

/** Headers only the gateway may set on the way in: a client sending them is ignored. */
const TRUSTED_REQUEST_HEADERS = [
  'x-user-id',
  SERVICE_TOKEN_HEADER,
  'x-session-key',
  // The session cookie is the gateway's to read; the services get the verified user instead.
  'cookie',
  'x-request-id',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
  WEB_ORIGIN_HEADER.toLowerCase(),
];

export interface ForwardPlan {
  owner: UpstreamOwner;
  /** Verified user, sent as X-User-Id; absent for anonymous requests. */
  userId: string | undefined;
  /** The presented session key, sent to auth alone as X-Session-Key (from the header or the browser's cookie). */
  sessionKey: string | undefined;
  /** The body the gateway read (and validated); undefined streams the request itself. */
  body: Buffer | undefined;
  requestId: string;
  /** The caller's Origin when the CORS allowlist accepted it, sent as X-Web-Origin. */
  webOrigin: string | undefined;
  /**
   * Reads a JSON answer whole and sends what this returns instead (sign-in: the session moves into a cookie). May set
   * response headers; small answers only.
   */
  rewriteJsonAnswer?: (status: number, body: unknown) => unknown;
}

export interface UpstreamForwarder {
  /** Forwards and streams the answer back; rejects with an AppError (502/503/504) when no answer arrives. */
  forward(req: Request, res: Response, plan: ForwardPlan): Promise<void>;
  close(): Promise<void>;
}

export interface UpstreamForwarderOptions {
  urls: UpstreamUrls;
  /** Longest wait for a connection, for the answer's headers, and between two chunks of the answer. */
  timeoutMs: number;
  /** Wait for the answer's headers while a streamed upload is still arriving (a slow client must not be cut). */
  uploadTimeoutMs: number;
  logger: Logger;
  /** Signs the verified user (or none) into each forwarded request; the services trust nothing else. */
  identity: ServiceIdentity;
}

function connectionTokens(headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>): Set<string> {
  const value = headers['connection'];
  const text = Array.isArray(value) ? value.join(',') : (value ?? '');
  return new Set(
    text
      .split(',')
      .map((token) => token.trim().toLowerCase())
      .filter(Boolean),
  );
}

function forwardableHeaders(
  headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>,
  drop: Iterable<string> = [],
): Record<string, string | string[]> {
  const dropped = new Set([...HOP_BY_HOP, ...connectionTokens(headers), ...drop]);
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !dropped.has(name.toLowerCase())) kept[name] = value;
  }
  return kept;
}

function requestHeaders(req: Request, plan: ForwardPlan, serviceToken: string): Record<string, string | string[]> {
  const headers = forwardableHeaders(req.headers, [...TRUSTED_REQUEST_HEADERS, 'traceparent', 'tracestate']);
  if (plan.userId) headers['x-user-id'] = plan.userId;
  headers[SERVICE_TOKEN_HEADER] = serviceToken;
  // The session key is auth's business only (logout revokes it); the others trust the verified user.
  if (plan.owner === 'auth' && plan.sessionKey) headers['x-session-key'] = plan.sessionKey;
  headers['x-request-id'] = plan.requestId;
  if (plan.webOrigin) headers[WEB_ORIGIN_HEADER.toLowerCase()] = plan.webOrigin;
  injectTraceHeaders(headers);
  headers['x-forwarded-for'] = req.ip ?? req.socket.remoteAddress ?? '';
  headers['x-forwarded-proto'] = req.protocol;
  const host = req.get('host');
  if (host) headers['x-forwarded-host'] = host;
  if (plan.body) {
    // The gateway read (and, if it was compressed, inflated) the body: these are the bytes that go on.
    delete headers['content-encoding'];
    headers['content-length'] = String(plan.body.length);
  }
  return headers;
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_DESTROYED',
]);

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  // undici wraps the socket error of a failed connect in `cause`.
  for (let depth = 0; depth < 3 && typeof current === 'object' && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** What the client is told when the owner gave no answer. */
export function upstreamFailure(error: unknown, owner: UpstreamOwner): AppError {
  const code = errorCode(error);
  const details = { target: owner, code };
  if (code && TIMEOUT_CODES.has(code)) {
    return AppError.gatewayTimeout(`${SERVICE_UNAVAILABLE_MESSAGE}: no answer in time. Please try again.`, details);
  }
  if (code && UNREACHABLE_CODES.has(code)) return AppError.serviceUnavailable(SERVICE_UNAVAILABLE_MESSAGE, details);
  return AppError.badGateway(SERVICE_UNAVAILABLE_MESSAGE, details);
}

const CLOSE_GRACE_MS = 5000;

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

export function createUpstreamForwarder(options: UpstreamForwarderOptions): UpstreamForwarder {
  const { logger } = options;
  const agent = new Agent({ connect: { timeout: options.timeoutMs } });
  const bases: Record<UpstreamOwner, string> = {
    auth: withoutTrailingSlash(options.urls.auth),
    billing: withoutTrailingSlash(options.urls.billing),
    generation: withoutTrailingSlash(options.urls.generation),
    bulk: withoutTrailingSlash(options.urls.bulk),
  };

  async function forward(req: Request, res: Response, plan: ForwardPlan): Promise<void> {
    // A client that hangs up stops the upstream call (and its streaming) at once.
    const abort = new AbortController();
    const onClientGone = () => {
      if (!res.writableFinished) abort.abort();
    };
    res.once('close', onClientGone);

    const method = req.method.toUpperCase();
    const streamsBody = plan.body === undefined && method !== 'GET' && method !== 'HEAD';
    const body = plan.body && plan.body.length > 0 ? plan.body : streamsBody ? req : undefined;
    let answer: Awaited<ReturnType<typeof undiciRequest>>;
    try {
      const serviceToken = await options.identity.sign(plan.userId);
      answer = await undiciRequest(`${bases[plan.owner]}${req.originalUrl}`, {
        method: method as 'GET',
        headers: requestHeaders(req, plan, serviceToken),
        body,
        signal: abort.signal,
        dispatcher: agent,
        headersTimeout: streamsBody ? options.uploadTimeoutMs : options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
    } catch (error) {
      res.off('close', onClientGone);
      if (abort.signal.aborted) return; // nobody is waiting for an answer
      const failure = upstreamFailure(error, plan.owner);
      logger.warn({ err: error, target: plan.owner, status: failure.status }, 'owning service gave no answer');
      throw failure;
    }

    res.status(answer.statusCode);
    // The gateway's CORS answer is the only one: an owner cannot widen it.
    const responseHeaders = forwardableHeaders(answer.headers);
    for (const [name, value] of Object.entries(responseHeaders)) {
      if (!name.startsWith('access-control-')) res.setHeader(name, value);
    }
    if (plan.rewriteJsonAnswer && String(answer.headers['content-type'] ?? '').includes('json')) {
      try {
        const rewritten = plan.rewriteJsonAnswer(answer.statusCode, await answer.body.json());
        res.removeHeader('content-length');
        res.removeHeader('content-encoding');
        res.json(rewritten);
      } catch (error) {
        logger.warn({ err: error, target: plan.owner }, 'answer of the owning service could not be read');
        if (!res.headersSent) throw AppError.badGateway(SERVICE_UNAVAILABLE_MESSAGE, { target: plan.owner });
      } finally {
        res.off('close', onClientGone);
      }
      return;
    }
    // Request logging, tracing, drain tracking and the rate limiters each watch 'close' once per response; the
    // stream pipeline adds its own. That is a fixed dozen per response, not a leak, so lift Node's warning level.
    res.setMaxListeners(Math.max(res.getMaxListeners(), 20));
    try {
      await pipeline(answer.body, res);
    } catch (error) {
      if (!abort.signal.aborted) {
        logger.warn({ err: error, target: plan.owner }, 'answer of the owning service broke off while streaming');
      }
      res.destroy();
    } finally {
      res.off('close', onClientGone);
    }
  }

  return {
    forward,
    async close() {
      // Callers drain the HTTP server first; anything still streaming after a grace period is cut.
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), CLOSE_GRACE_MS);
      });
      const outcome = await Promise.race([agent.close().then(() => 'closed' as const), grace]);
      clearTimeout(timer);
      if (outcome === 'late') await agent.destroy();
    },
  };
}
