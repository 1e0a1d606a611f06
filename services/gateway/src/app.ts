import {
  buildOpenApiDocument,
  clientConfigSchema,
  clientLimits,
  createRouter,
  packageTiers,
  validateRequest,
  type AnalyticsEvent,
  type ApiRoute,
  type ClientConfig,
} from '@productgen/contracts';
import {
  AppError,
  checkReadiness,
  DEFAULT_DRAIN_TIMEOUT_MS,
  drainRequestBody,
  errorHandler,
  serviceRequestLog,
  recordHttpMetrics,
  traceRequests,
  type Logger,
} from '@productgen/service-kit';
import compression from 'compression';
import express, { type Express, type Request, type RequestHandler, type Response } from 'express';
import { servesDevRoutes, type GatewayConfig } from './config';
import type { AnalyticsLog } from './domain/analytics';
import { renderDocsPage } from './domain/docs-page';
import {
  allowHeader,
  bodyPolicy,
  payloadTooLargeMessage,
  servedRoutes,
  validationView,
  type BodyLimits,
} from './domain/routing';
import {
  clearedSessionCookie,
  CROSS_SITE_REFUSAL_MESSAGE,
  isBrowserRequest,
  isStateChangeFromAllowedPage,
  sessionCookie,
} from './domain/browser-session';
import { presentedSession } from './domain/session';
import {
  corsPolicy,
  cspNonce,
  requestState,
  securityHeaders,
  setRequestState,
  type RateLimiters,
  type RequestState,
} from './security';
import type { SessionVerifier } from './session-verifier';
import { staticJsonAnswer, type ETagFunction } from './static-answer';
import type { UpstreamForwarder } from './upstream';
import { isAllowedWebOrigin } from './domain/web-origins';

export interface GatewayAppDeps {
  config: GatewayConfig;
  logger: Logger;
  sessions: SessionVerifier;
  analytics: AnalyticsLog;
  forwarder: UpstreamForwarder;
  rateLimiters: RateLimiters;
}

const LOOPBACK_ADDRESSES = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function stateOf(res: Response): RequestState {
  const state = requestState(res);
  // Only reachable if the middleware order is broken: a programming error, answered as a 500.
  if (!state) throw new Error('gateway request state missing: resolveRoute did not run');
  return state;
}

/** Ops endpoints answer only on the loopback interface (kubectl port-forward, tests), never through an ingress. */
const loopbackOnly: RequestHandler = (req, _res, next) => {
  next(LOOPBACK_ADDRESSES.has(req.socket.remoteAddress ?? '') ? undefined : AppError.notFound());
};

// ---------------------------------------------------------------------------------------------- pipeline steps

function resolveRoute(routes: readonly ApiRoute[]): RequestHandler {
  const router = createRouter(routes);
  return (req, res, next) => {
    const match = router.match(req.method, req.path);
    if (match.kind === 'not_found') throw AppError.notFound();
    if (match.kind === 'method_not_allowed') {
      res.setHeader('Allow', allowHeader(match.allowedMethods));
      throw AppError.methodNotAllowed();
    }
    const session = presentedSession(req.headers);
    setRequestState(res, {
      route: match.route,
      params: match.params,
      sessionKey: session?.key,
      sessionSource: session?.source,
    });
    // Download links are <img> and <a> on the web origin's pages. Chromium counts two ports of one IP address
    // (127.0.0.1:3000 / :8080) as different sites, so same-site would blank every image there. Nothing leaks: a
    // download answers only with the session cookie, which is SameSite=Lax, so another site's page never gets one.
    if (match.route.acceptsSessionCookie) res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    next();
  };
}

/**
 * Cross-site request forgery: the browser adds the session cookie to any request to the API, including a form or
 * fetch another site's page sends, so every state change must come from the API itself or an allowed web origin.
 */
function refuseCrossSiteStateChanges(config: GatewayConfig): RequestHandler {
  return (req, _res, next) => {
    const fetchSite = req.headers['sec-fetch-site'];
    const allowed = isStateChangeFromAllowedPage(
      {
        method: req.method,
        origin: req.headers.origin,
        fetchSite: Array.isArray(fetchSite) ? fetchSite[0] : fetchSite,
        host: req.headers.host,
      },
      config.WEB_ORIGINS,
    );
    next(allowed ? undefined : AppError.forbidden(CROSS_SITE_REFUSAL_MESSAGE));
  };
}

function authenticate(sessions: SessionVerifier, logger: Logger): RequestHandler {
  return async (req, res, next) => {
    const state = stateOf(res);
    const { route, sessionKey } = state;
    if (route.auth === 'none') return next();
    if (route.auth === 'session') {
      const userId = sessionKey ? await sessions.verify(sessionKey) : undefined;
      if (!userId) {
        // A browser holding a key auth no longer knows (logged out elsewhere, expired) forgets it.
        if (state.sessionSource === 'cookie') res.append('Set-Cookie', clearedSessionCookie(req.secure));
        throw AppError.unauthorized();
      }
      state.userId = userId;
      return next();
    }
    // Optional: a signed-in user is recognised; a bad key or an unreachable auth service just means anonymous.
    if (sessionKey) {
      try {
        state.userId = await sessions.verify(sessionKey);
      } catch (error) {
        logger.warn({ err: error, route: route.id }, 'optional session check failed; continuing anonymously');
      }
    }
    next();
  };
}

const NO_BODY = Buffer.alloc(0);

function readBody(bodyLimits: BodyLimits): RequestHandler {
  const rawParsers = new Map<number, RequestHandler>();
  const rawParser = (limit: number) => {
    let parser = rawParsers.get(limit);
    if (!parser) {
      parser = express.raw({ type: () => true, limit });
      rawParsers.set(limit, parser);
    }
    return parser;
  };
  return (req, res, next) => {
    const state = stateOf(res);
    const policy = bodyPolicy(state.route, bodyLimits);
    if (policy.kind === 'stream') {
      const declared = Number(req.headers['content-length']);
      if (!Number.isFinite(declared) || declared <= policy.limit) return next();
      // Refused before a byte is read: the body is read and discarded first (up to the limit once more), so a
      // client that sends it all before reading gets the 413 rather than a reset connection.
      const refusal = AppError.payloadTooLarge(payloadTooLargeMessage(policy.limit));
      void drainRequestBody(req, res, { maxBytes: policy.limit, timeoutMs: DEFAULT_DRAIN_TIMEOUT_MS }).then(() =>
        next(refusal),
      );
      return;
    }
    // No Content-Length and no Transfer-Encoding (every GET): nothing to read, as body-parser would find.
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      state.rawBody = NO_BODY;
      return next();
    }
    rawParser(policy.limit)(req, res, (error?: unknown) => {
      if (error) {
        const type = (error as { type?: unknown }).type;
        return next(
          type === 'entity.too.large' ? AppError.payloadTooLarge(payloadTooLargeMessage(policy.limit)) : error,
        );
      }
      const bytes: unknown = req.body;
      state.rawBody = Buffer.isBuffer(bytes) ? bytes : Buffer.alloc(0);
      if (policy.parseJson && state.rawBody.length > 0) {
        try {
          state.jsonBody = JSON.parse(state.rawBody.toString('utf8')) as unknown;
        } catch {
          return next(AppError.badRequest('The request body must be valid JSON.'));
        }
      }
      next();
    });
  };
}

/** Checks the input against the route's contract: 400 with every problem in one sentence list. */
const validateInput: RequestHandler = (req, res, next) => {
  const state = stateOf(res);
  const result = validateRequest(validationView(state.route), {
    body: state.jsonBody,
    query: req.query,
    params: state.params,
    headers: req.headers,
  });
  if (!result.ok) throw AppError.badRequest(result.message, result.issues);
  if (state.route.owner === 'gateway') state.jsonBody = result.data.body;
  next();
};

/** compression() for the answers forwarded from an owner (see createGatewayApp). */
function compressForwarded(compress: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if (stateOf(res).route.owner === 'gateway') return next();
    compress(req, res, next);
  };
}

type GatewayHandler = (req: Request, res: Response, state: RequestState) => void;

function gatewayHandlers(
  config: GatewayConfig,
  analytics: AnalyticsLog,
  logger: Logger,
  etagOf: ETagFunction | undefined,
): Record<string, GatewayHandler> {
  const clientConfig: ClientConfig = clientConfigSchema.parse({
    product_name: config.PRODUCT_NAME,
    google_client_id: config.GOOGLE_CLIENT_ID,
    stripe_publishable_key: config.STRIPE_PUBLISHABLE_KEY ?? null,
    dev_mode: servesDevRoutes(config),
    packages: packageTiers,
    limits: clientLimits,
  });
  const clientConfigAnswer = staticJsonAnswer(clientConfig, etagOf);
  const analyticsLogger = logger.child({ component: 'analytics' });
  return {
    clientConfig: clientConfigAnswer,
    trackEvent: (_req, res, state) => {
      const recorded = analytics.record(state.jsonBody as AnalyticsEvent, state.userId);
      analyticsLogger.info({ event: recorded }, 'analytics event');
      res.json({ success: true });
    },
  };
}

function dispatch(deps: GatewayAppDeps, routes: readonly ApiRoute[], etagOf: ETagFunction | undefined): RequestHandler {
  const handlers = gatewayHandlers(deps.config, deps.analytics, deps.logger, etagOf);
  for (const route of routes) {
    if (route.owner === 'gateway' && !handlers[route.id]) {
      throw new Error(`The contracts route ${route.id} (${route.method} ${route.path}) has no gateway handler`);
    }
  }
  return async (req, res) => {
    const state = stateOf(res);
    const { route } = state;
    if (route.owner === 'gateway') {
      handlers[route.id]?.(req, res, state);
      return;
    }
    const loggingOut = route.id === 'authLogout' && state.sessionKey !== undefined;
    if (loggingOut) {
      const sessionKey = state.sessionKey as string;
      // Forget the key now and again once auth has answered, so no check that ran in between can keep it alive.
      deps.sessions.evict(sessionKey);
      res.once('finish', () => deps.sessions.evict(sessionKey));
      res.append('Set-Cookie', clearedSessionCookie(req.secure));
    }
    await deps.forwarder.forward(req, res, {
      owner: route.owner,
      userId: state.userId,
      sessionKey: state.sessionKey,
      body: state.rawBody,
      requestId: String(req.id),
      webOrigin: isAllowedWebOrigin(req.headers.origin, req.headers.host, deps.config.WEB_ORIGINS)
        ? req.headers.origin
        : undefined,
      rewriteJsonAnswer:
        route.id === 'authGoogle' ? (status, body) => startBrowserSession(req, res, status, body) : undefined,
    });
  };

  /** A successful sign-in sets the HttpOnly session cookie; a browser's answer then carries no key of its own. */
  function startBrowserSession(req: Request, res: Response, status: number, body: unknown): unknown {
    if (status !== 200 || typeof body !== 'object' || body === null) return body;
    const { session_key: sessionKey, ...rest } = body as Record<string, unknown>;
    if (typeof sessionKey !== 'string' || sessionKey === '') return body;
    const maxAgeSeconds = deps.config.SESSION_COOKIE_DAYS * 24 * 60 * 60;
    res.append('Set-Cookie', sessionCookie(sessionKey, { secure: req.secure, maxAgeSeconds }));
    return isBrowserRequest(req.headers) ? rest : body;
  }
}

// ---------------------------------------------------------------------------------------------- the app

/** The gateway's Express app: one API origin in front of auth, billing, generation and bulk. */
export function createGatewayApp(deps: GatewayAppDeps): Express {
  const { config, logger, rateLimiters } = deps;
  const devRoutes = servesDevRoutes(config);
  const routes = servedRoutes(!devRoutes);
  const bodyLimits: BodyLimits = {
    json: config.JSON_BODY_LIMIT_BYTES,
    image: config.IMAGE_BODY_LIMIT_BYTES,
    upload: config.UPLOAD_BODY_LIMIT_BYTES,
  };
  const openApiDocument = buildOpenApiDocument({ includeDevRoutes: devRoutes, title: `${config.PRODUCT_NAME} API` });

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  const etagOf = app.get('etag fn') as ETagFunction | undefined;
  // Brotli or gzip for the answers that can be large: the forwarded ones (images and zips, already compressed,
  // pass through as they are) and the docs page. The gateway's other answers are small (below compression's
  // threshold: errors, probes, analytics) or compressed once (staticJsonAnswer), and compression() hooking every
  // response was about a sixth of the CPU of GET /configlist.
  const compress = compression();

  app.use(traceRequests());
  app.use(recordHttpMetrics());
  app.use(serviceRequestLog(logger, 'gateway'));
  app.use(securityHeaders(config), corsPolicy(config));

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  // Ready as soon as it listens: an owner being down is answered per request (503), and taking the whole API
  // origin out of rotation for it would turn one failure into all of them.
  app.get('/readyz', async (_req, res) => {
    res.json(await checkReadiness({}, 1000, logger));
  });

  app.use(rateLimiters.perIp);

  app.get('/openapi.json', staticJsonAnswer(openApiDocument, etagOf));
  app.get('/docs', compress, (_req, res) => {
    res.type('html').send(renderDocsPage(openApiDocument, { styleNonce: cspNonce(res) }));
  });
  app.get('/internal/pst/stats', loopbackOnly, (_req, res) => {
    res.json(deps.analytics.stats());
  });

  app.use(
    resolveRoute(routes),
    refuseCrossSiteStateChanges(config),
    rateLimiters.signIn,
    rateLimiters.perSession,
    authenticate(deps.sessions, logger),
    readBody(bodyLimits),
    validateInput,
    compressForwarded(compress),
    dispatch(deps, routes, etagOf),
  );
  app.use(errorHandler(logger));
  return app;
}
