import express, { type Express, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { errorHandler } from './error-handler';
import { checkReadiness, type ReadinessCheck } from './health';
import { logRequests } from './request-log';
import { routeNotMatched, trackAllowedMethods } from './router';
import { traceRequests } from './request-tracing';
import { verifyServiceCalls, type ServiceIdentity } from './service-identity';
import { recordHttpMetrics } from './metrics';
import { installContextPropagation } from './telemetry';
import { redactRequestUrls } from './url-redaction';

export interface HttpAppOptions {
  /** Service name, used in logs. */
  name: string;
  logger: Logger;
  /** Dependency checks run by GET /readyz, e.g. `{ mongo: mongo.ping, s3: store.ping }`. */
  readiness?: Record<string, ReadinessCheck>;
  /** Per-check time limit of /readyz (ms). */
  readinessTimeoutMs?: number;
  /** Largest accepted JSON body (bytes or a string such as '1mb'). */
  bodyLimit?: number | string;
  /**
   * Verifies every caller but the probes (the gateway's or another service's signed token, verifyServiceCalls);
   * the services all pass theirs. Without it (the web hosts) anyone may call.
   */
  serviceIdentity?: ServiceIdentity;
}

export interface HttpApp extends Express {
  /** Adds the 404/405 tail and the error handler. Call once, after mounting every route. */
  finalize(): Express;
}

const PROBE_PATHS = new Set(['/healthz', '/readyz']);

/**
 * The request log of every HTTP app, the gateway's too: a line per answer, none for the probes. A page's address can
 * carry a checkout session id or a referral code (`?session_id=`, `?ref=`), and so can the Referer of the requests it
 * makes: their values never reach the log.
 */
export function serviceRequestLog(logger: Logger, app: string): RequestHandler {
  return logRequests({
    logger: logger.child({ component: 'http', app }),
    ignore: (req) => PROBE_PATHS.has(req.url?.split('?')[0] ?? ''),
    serializeRequest: redactRequestUrls,
  });
}

/**
 * An Express app with the common front (request id, trace context, request logs, JSON bodies, probes).
 * Mount routes on it (use createRouter() for sub-routers to get 405s), then call finalize().
 */
export function createHttpApp(options: HttpAppOptions): HttpApp {
  installContextPropagation();
  const { logger } = options;
  const readiness = options.readiness ?? {};
  const readinessTimeoutMs = options.readinessTimeoutMs ?? 2000;

  const app = express();
  app.disable('x-powered-by');
  trackAllowedMethods(app.router);

  app.use(traceRequests());
  app.use(recordHttpMetrics());
  app.use(serviceRequestLog(logger, options.name));

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const report = await checkReadiness(readiness, readinessTimeoutMs, logger);
    res.status(report.status === 'ok' ? 200 : 503).json(report);
  });

  if (options.serviceIdentity) app.use(verifyServiceCalls(options.serviceIdentity));
  app.use(express.json({ limit: options.bodyLimit ?? '1mb' }));

  let finalized = false;
  return Object.assign(app, {
    finalize(): Express {
      if (!finalized) {
        finalized = true;
        app.use(routeNotMatched);
        app.use(errorHandler(logger));
      }
      return app;
    },
  });
}
