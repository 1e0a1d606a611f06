import type { MessageBus, Subscription } from '@productgen/bus';
import {
  createServiceIdentity,
  installContextPropagation,
  type Logger,
  type MongoHitCounter,
} from '@productgen/service-kit';
import type { Express } from 'express';
import { createGatewayApp } from './app';
import type { GatewayConfig } from './config';
import { AnalyticsLog } from './domain/analytics';
import { SessionCache } from './domain/session';
import { createRateLimiters } from './security';
import { reusingServiceTokens } from './service-tokens';
import { subscribeToSessionRevocations } from './session-revocations';
import { createSessionVerifier, type FetchLike } from './session-verifier';
import { createUpstreamForwarder } from './upstream';

export interface GatewayDeps {
  config: GatewayConfig;
  logger: Logger;
  /** Used for the session check against auth; defaults to the global fetch. */
  fetchImpl?: FetchLike;
  /**
   * Where auth announces revoked sessions (session.revoked). Without it a logout reaches only the replica that
   * forwarded it; the others accept the key until their cache entry expires (SESSION_CACHE_TTL_MS).
   */
  bus?: MessageBus;
  /**
   * Where the rate limits count (MongoDB, MONGO_URL), shared by every replica. Without it each replica counts on
   * its own, so N replicas allow N times the limits.
   */
  rateLimitCounter?: MongoHitCounter;
}

export interface Gateway {
  app: Express;
  /** Starts consuming session revocations (when there is a bus). Call before serving. */
  start(): Promise<void>;
  /** Releases upstream connections and timers. Call after the HTTP server has stopped taking requests. */
  stop(): Promise<void>;
}

/** The API gateway, the same in embedded mode (composed by the launcher) and distributed mode (main.ts). */
export function createGateway(deps: GatewayDeps): Gateway {
  const { config, logger } = deps;
  installContextPropagation();
  const identity = reusingServiceTokens(createServiceIdentity(config.SERVICE_AUTH_SECRET, 'gateway'));

  const sessions = createSessionVerifier({
    authUrl: config.AUTH_URL,
    fetchImpl: deps.fetchImpl ?? ((input, init) => fetch(input, init)),
    timeoutMs: config.SESSION_VERIFY_TIMEOUT_MS,
    cache: new SessionCache({
      ttlMs: config.SESSION_CACHE_TTL_MS,
      maxEntries: config.SESSION_CACHE_MAX_ENTRIES,
      revocationWindowMs: config.SESSION_VERIFY_TIMEOUT_MS + 1000,
    }),
    logger,
    identity,
  });
  const forwarder = createUpstreamForwarder({
    urls: {
      auth: config.AUTH_URL,
      billing: config.BILLING_URL,
      generation: config.GENERATION_URL,
      bulk: config.BULK_URL,
    },
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    uploadTimeoutMs: config.UPSTREAM_UPLOAD_TIMEOUT_MS,
    logger,
    identity,
  });
  const rateLimiters = createRateLimiters(config, logger, deps.rateLimitCounter);
  const analytics = new AnalyticsLog({ recentLimit: config.PST_RECENT_EVENTS });

  const app = createGatewayApp({ config, logger, sessions, analytics, forwarder, rateLimiters });
  let revocations: Subscription | undefined;
  let stopped: Promise<void> | undefined;
  return {
    app,
    async start() {
      if (deps.bus && !revocations) revocations = await subscribeToSessionRevocations(deps.bus, sessions);
    },
    stop() {
      stopped ??= (async () => {
        await revocations?.close();
        rateLimiters.close();
        await forwarder.close();
      })();
      return stopped;
    },
  };
}
