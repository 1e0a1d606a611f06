import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiRoute } from '@productgen/contracts';
import { AppError, type Logger, type MongoHitCounter } from '@productgen/service-kit';
import cors from 'cors';
import type { RequestHandler } from 'express';
import { MemoryStore, type Store } from 'express-rate-limit';
import helmet, { type HelmetOptions } from 'helmet';
import type { GatewayConfig } from './config';
import type { SessionKeySource } from './domain/session';
import { ipBucket, isSignInRoute, secondsUntil, sessionBucket, tooManyRequestsMessage } from './domain/rate-limit-keys';
import { isAllowedWebOrigin, isPotentiallyTrustworthy } from './domain/web-origins';
import { windowLimit } from './rate-limiter';
import { SharedHitBlocks } from './shared-hit-blocks';

/** What the route-resolving middleware leaves for the ones after it (rate limits, auth, body, dispatch). */
export interface RequestState {
  route: ApiRoute;
  params: Record<string, string>;
  sessionKey: string | undefined;
  /** Where the key came from; a key from the cookie is cleared from the browser when auth refuses it. */
  sessionSource: SessionKeySource | undefined;
  userId?: string;
  /** Bytes read by the gateway (buffered routes). */
  rawBody?: Buffer;
  /** The parsed JSON body (routes with a JSON body schema). */
  jsonBody?: unknown;
}

const STATE = Symbol('productgen.gateway.request');

type WithState = { [STATE]?: RequestState };

export function setRequestState(res: ServerResponse, state: RequestState): RequestState {
  (res as ServerResponse & WithState)[STATE] = state;
  return state;
}

export function requestState(res: ServerResponse): RequestState | undefined {
  return (res as ServerResponse & WithState)[STATE];
}

// ---------------------------------------------------------------------------------------------- CSP and headers

const NONCE = Symbol('productgen.gateway.cspNonce');
const NONCE_BYTES = 16;
/** Nonces taken from one randomBytes call: a call per response was about 3 % of the gateway's CPU. */
const NONCES_PER_DRAW = 256;
let nonceBytes = Buffer.alloc(0);
let nonceOffset = 0;

/** 16 bytes from the CSPRNG, base64, never handed out twice. */
function freshNonce(): string {
  if (nonceOffset >= nonceBytes.length) {
    nonceBytes = randomBytes(NONCE_BYTES * NONCES_PER_DRAW);
    nonceOffset = 0;
  }
  const nonce = nonceBytes.toString('base64', nonceOffset, nonceOffset + NONCE_BYTES);
  nonceOffset += NONCE_BYTES;
  return nonce;
}

export function cspNonce(res: ServerResponse): string {
  return (res as ServerResponse & { [NONCE]?: string })[NONCE] ?? '';
}

/**
 * helmet's headers with a Content-Security-Policy naming the web app's and the remote (microfrontend) origins: the
 * API origin serves the docs page and, in embedded mode, the dev checkout page, which must only load from those.
 * Each response gets a fresh nonce for the docs page's inline stylesheet (cspNonce).
 *
 * helmet's headers are the same on every response but for that nonce, so helmet runs once here, against a
 * response that records them, and each response sets the recorded headers with its own nonce in the policy
 * (helmet's eleven middlewares, the policy rebuilt and validated per request, were about 5 % of the gateway's CPU).
 */
export function securityHeaders(config: GatewayConfig): RequestHandler {
  const headers = recordedHelmetHeaders(config);
  return (req, res, next) => {
    const nonce = freshNonce();
    (res as ServerResponse & { [NONCE]?: string })[NONCE] = nonce;
    // Chromium ignores COOP on an untrustworthy origin (plain http at a LAN name) and says so as a console
    // error on the dev checkout page and the page it returns to; the header only counts where it is honoured.
    const coop = isPotentiallyTrustworthy(req.protocol, req.hostname);
    for (const name of headers.removed) res.removeHeader(name);
    for (const [name, value] of headers.set) {
      if (typeof value !== 'string') res.setHeader(name, value.join(nonce));
      else if (coop || name !== 'Cross-Origin-Opener-Policy') res.setHeader(name, value);
    }
    next();
  };
}

/** What helmet does to every response: headers set in order (the CSP as its parts around the nonce), removed. */
interface HelmetHeaders {
  set: Array<[name: string, value: string | [beforeNonce: string, afterNonce: string]]>;
  removed: string[];
}

function recordedHelmetHeaders(config: GatewayConfig): HelmetHeaders {
  // Stands for the nonce while helmet builds the policy: hex, so helmet accepts it and no origin contains it.
  const slot = randomBytes(16).toString('hex');
  const middleware = helmet(helmetOptions(config, () => slot));
  const recorded: HelmetHeaders = { set: [], removed: [] };
  const recorder = {
    setHeader(name: string, value: unknown) {
      const parts = String(value).split(slot);
      recorded.set.push([name, parts.length === 2 ? [parts[0]!, parts[1]!] : String(value)]);
    },
    removeHeader(name: string) {
      recorded.removed.push(name);
    },
  };
  let outcome: { error: unknown } | undefined;
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    outcome = { error };
  });
  if (!outcome) throw new Error('helmet did not set its headers synchronously');
  if (outcome.error) throw outcome.error;
  if (!recorded.set.some(([, value]) => typeof value !== 'string')) {
    throw new Error('the Content-Security-Policy helmet built has no place for the nonce');
  }
  return recorded;
}

/** helmet's options for the gateway; `nonce` gives the current response's CSP nonce. */
export function helmetOptions(config: GatewayConfig, nonce: (res: ServerResponse) => string): HelmetOptions {
  const web = config.WEB_ORIGINS;
  const remote = config.REMOTE_ORIGINS;
  const production = config.NODE_ENV === 'production';
  const nonceSource = (_req: IncomingMessage, res: ServerResponse) => `'nonce-${nonce(res)}'`;
  return {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...remote],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", nonceSource, ...remote],
        imgSrc: ["'self'", 'data:', 'blob:', ...web, ...remote],
        fontSrc: ["'self'", 'data:', ...remote],
        connectSrc: ["'self'", ...web, ...remote],
        // The dev checkout's form ends on the web app's success page.
        formAction: ["'self'", ...web],
        frameAncestors: ["'self'", ...web],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        // Embedded mode runs on plain http://localhost.
        upgradeInsecureRequests: production ? [] : null,
      },
    },
    // Web app and API share a site (app.example.com / api.example.com, localhost:3000 / :8080); the download routes
    // alone answer cross-origin (see resolveRoute in app.ts).
    crossOriginResourcePolicy: { policy: 'same-site' },
  };
}

/**
 * CORS for the web app's origins only (configured, or the web app at the host the API was addressed by; see
 * isAllowedWebOrigin); an unknown Origin gets no Access-Control-Allow-Origin at all.
 */
export function corsPolicy(config: GatewayConfig): RequestHandler {
  const options = {
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Content-Type', 'X-Session-Key', 'X-Request-Id', 'traceparent', 'tracestate'],
    exposedHeaders: ['X-Request-Id', 'RateLimit', 'RateLimit-Policy', 'Retry-After'],
    maxAge: 600,
  };
  return cors((req, callback) => {
    const origin = req.headers.origin;
    const allowed = isAllowedWebOrigin(origin, req.headers.host, config.WEB_ORIGINS);
    callback(null, { ...options, origin: allowed ? origin : false });
  });
}

// ---------------------------------------------------------------------------------------------- rate limits

export interface RateLimiters {
  /** Every request except the probes, by client address. */
  perIp: RequestHandler;
  /** POST /auth/google, by client address. */
  signIn: RequestHandler;
  /** Requests that present a session key, by key. */
  perSession: RequestHandler;
  close(): void;
}

const PROBE_PATHS = new Set(['/healthz', '/readyz']);

/**
 * The gateway's rate limits. With `shared` (MongoDB) every replica counts in the same windows; without it (one
 * replica, tests) each counts in memory. A store that cannot answer lets the request through: the limits
 * protect the services, and refusing everyone while the database is away would be an outage of its own.
 */
export function createRateLimiters(config: GatewayConfig, logger: Logger, shared?: MongoHitCounter): RateLimiters {
  const stores: MemoryStore[] = [];

  function limiter(
    name: string,
    limit: number,
    key: (req: IncomingMessage, res: ServerResponse) => string,
    skip: (req: IncomingMessage, res: ServerResponse) => boolean,
    signIn = false,
  ): RequestHandler {
    let store: Store;
    if (shared) store = new SharedHitBlocks(shared, `${name}:`, limit, config.RATE_LIMIT_WINDOW_MS);
    else {
      const memory = new MemoryStore();
      stores.push(memory);
      store = memory;
    }
    return windowLimit({
      name,
      limit,
      windowMs: config.RATE_LIMIT_WINDOW_MS,
      store,
      key,
      skip,
      refusal: (resetTime) =>
        AppError.tooManyRequests(tooManyRequestsMessage(secondsUntil(resetTime, Date.now()), signIn)),
      logger,
    });
  }

  const clientIp = (req: IncomingMessage) => ipBucket((req as IncomingMessage & { ip?: string }).ip);
  return {
    perIp: limiter('ip', config.RATE_LIMIT_PER_IP, clientIp, (req) =>
      PROBE_PATHS.has((req.url ?? '').split('?')[0] ?? ''),
    ),
    signIn: limiter(
      'sign-in',
      config.RATE_LIMIT_SIGN_IN_PER_IP,
      clientIp,
      (_req, res) => !isSignInRoute(requestState(res)?.route),
      true,
    ),
    perSession: limiter(
      'session',
      config.RATE_LIMIT_PER_SESSION,
      (_req, res) => sessionBucket(requestState(res)?.sessionKey ?? ''),
      (_req, res) => requestState(res)?.sessionKey === undefined,
    ),
    close() {
      for (const store of stores) store.shutdown();
    },
  };
}
