import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiRoute } from '@productgen/contracts';
import { AppError, type MongoHitCounter } from '@productgen/service-kit';
import cors from 'cors';
import type { RequestHandler } from 'express';
import { MemoryStore, rateLimit, type RateLimitInfo, type Store } from 'express-rate-limit';
import helmet from 'helmet';
import type { GatewayConfig } from './config';
import type { SessionKeySource } from './domain/session';
import { ipBucket, isSignInRoute, secondsUntil, sessionBucket, tooManyRequestsMessage } from './domain/rate-limit-keys';
import { isAllowedWebOrigin, isPotentiallyTrustworthy } from './domain/web-origins';
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

/** A fresh nonce per response for the inline stylesheet of the docs page. */
export const assignCspNonce: RequestHandler = (_req, res, next) => {
  (res as ServerResponse & { [NONCE]?: string })[NONCE] = randomBytes(16).toString('base64');
  next();
};

export function cspNonce(res: ServerResponse): string {
  return (res as ServerResponse & { [NONCE]?: string })[NONCE] ?? '';
}

/**
 * helmet with a Content-Security-Policy naming the web app's and the remote (microfrontend) origins: the API
 * origin serves the docs page and, in embedded mode, the dev checkout page, which must only load from those.
 */
export function securityHeaders(config: GatewayConfig): RequestHandler {
  const helmetHeaders = helmetFor(config);
  return (req, res, next) => {
    helmetHeaders(req, res, (error?: unknown) => {
      // Chromium ignores COOP on an untrustworthy origin (plain http at a LAN name) and says so as a console
      // error on the dev checkout page and the page it returns to; the header only counts where it is honoured.
      if (!isPotentiallyTrustworthy(req.protocol, req.hostname)) res.removeHeader('Cross-Origin-Opener-Policy');
      next(error);
    });
  };
}

function helmetFor(config: GatewayConfig): RequestHandler {
  const web = config.WEB_ORIGINS;
  const remote = config.REMOTE_ORIGINS;
  const production = config.NODE_ENV === 'production';
  const nonceSource = (_req: IncomingMessage, res: ServerResponse) => `'nonce-${cspNonce(res)}'`;
  return helmet({
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
  });
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
export function createRateLimiters(config: GatewayConfig, shared?: MongoHitCounter): RateLimiters {
  const stores: MemoryStore[] = [];

  function limiter(
    name: string,
    limit: number,
    keyGenerator: (req: IncomingMessage, res: ServerResponse) => string,
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
    const propertyName = `rateLimit_${name}`;
    return rateLimit({
      windowMs: config.RATE_LIMIT_WINDOW_MS,
      limit,
      store,
      identifier: name,
      passOnStoreError: true,
      requestPropertyName: propertyName,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      keyGenerator: (req, res) => keyGenerator(req, res),
      skip: (req, res) => skip(req, res),
      handler: (req, _res, next) => {
        const info = (req as unknown as Record<string, RateLimitInfo | undefined>)[propertyName];
        next(AppError.tooManyRequests(tooManyRequestsMessage(secondsUntil(info?.resetTime, Date.now()), signIn)));
      },
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
