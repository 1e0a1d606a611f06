import type { Express } from 'express';
import type { Connection } from 'mongoose';
import type { MessageBus, Subscription } from '@productgen/bus';
import { createServiceIdentity, UsageQuota, usageWindowModel, type Logger } from '@productgen/service-kit';
import { createAuthApp } from './app';
import { isDevIdpEnabled, type AuthConfig } from './config';
import { createModels } from './data/models';
import { SessionRepository } from './data/session-repository';
import { UserRepository } from './data/user-repository';
import { sessionPolicyFromDays } from './domain/session-keys';
import { siteFetchLimitMessage } from './domain/site-fetch-limit';
import { loadDevIdentityProvider, type DevIdentityProvider } from './identity/dev-idp';
import { googleIssuer, TokenVerifier, type TrustedIssuer } from './identity/token-verifier';
import { subscribeConsumers } from './messaging/consumers';
import { SessionManager } from './session-manager';
import { ShopContextDeriver } from './shop/shop-context-deriver';
import { createSafeSiteFetcher, type SiteFetcher } from './shop/site-fetcher';

export interface AuthServiceDeps {
  config: AuthConfig;
  logger: Logger;
  /** The service's own database (e.g. dbName 'auth'); the caller opens and closes it. */
  mongo: Connection;
  /** The caller creates and closes the bus. */
  bus: MessageBus;
  /** Used for Google's tokeninfo and userinfo calls; defaults to the global fetch. */
  fetchImpl?: typeof fetch;
  /** Reads shop home pages; defaults to the SSRF-safe fetcher configured by SHOP_FETCH_*. */
  siteFetcher?: SiteFetcher;
  /** Time source for session expiry and token checks; tests move it forward. */
  now?: () => Date;
}

export interface AuthService {
  app: Express;
  /** Starts the message consumers (credits.balance_changed, generation.completed). */
  start(): Promise<void>;
  /** Stops the consumers and waits for background work; leaves the connection and bus to their owner. */
  stop(): Promise<void>;
  /** Resolves when the background shop-context derivations started so far have finished. */
  settle(): Promise<void>;
  /** The dev identity provider, when enabled (embedded mode outside production). */
  devIdp: DevIdentityProvider | undefined;
}

/** One factory for every way of running: the embedded launcher and main.ts both call it. */
export async function createAuthService(deps: AuthServiceDeps): Promise<AuthService> {
  const { config, bus } = deps;
  const logger = deps.logger.child({ component: 'auth' });
  const now = deps.now ?? (() => new Date());

  const models = await createModels(deps.mongo);
  const users = new UserRepository(models.users);
  const sessions = new SessionManager(
    new SessionRepository(models.sessions),
    sessionPolicyFromDays(config.SESSION_IDLE_DAYS, config.SESSION_ABSOLUTE_DAYS),
    now,
  );

  const devIdp = isDevIdpEnabled(config)
    ? await loadDevIdentityProvider({
        keys: models.devIdpKeys,
        issuer: config.DEV_IDP_ISSUER,
        audience: config.GOOGLE_CLIENT_ID,
      })
    : undefined;
  // Google is always trusted; the dev issuer only where the dev provider runs.
  const trustedIssuers: TrustedIssuer[] = [googleIssuer(config.GOOGLE_JWKS_URL, config.GOOGLE_TIMEOUT_MS)];
  if (devIdp) trustedIssuers.push({ provider: 'dev', issuers: [devIdp.issuer], keySet: devIdp.keySet });
  const verifier = new TokenVerifier({
    clientId: config.GOOGLE_CLIENT_ID,
    trustedIssuers,
    tokenInfoUrl: config.GOOGLE_TOKENINFO_URL,
    userInfoUrl: config.GOOGLE_USERINFO_URL,
    timeoutMs: config.GOOGLE_TIMEOUT_MS,
    fetchImpl: deps.fetchImpl ?? fetch,
    now,
  });

  const siteFetcher =
    deps.siteFetcher ??
    createSafeSiteFetcher({
      timeoutMs: config.SHOP_FETCH_TIMEOUT_MS,
      maxBytes: config.SHOP_FETCH_MAX_BYTES,
      policy: { allowLoopback: config.SHOP_FETCH_ALLOW_LOOPBACK && config.NODE_ENV !== 'production' },
    });
  const shopContext = new ShopContextDeriver(users, siteFetcher, logger);

  const siteFetches = new UsageQuota(
    await usageWindowModel(deps.mongo),
    'site-fetch',
    { max: config.SITE_FETCH_LIMIT_PER_WINDOW, windowMs: config.SITE_FETCH_LIMIT_WINDOW_MINUTES * 60_000 },
    siteFetchLimitMessage,
  );

  const app = createAuthApp({
    serviceIdentity: createServiceIdentity(config.SERVICE_AUTH_SECRET, 'auth'),
    verifier,
    users,
    sessions,
    bus,
    logger,
    now,
    shopContext,
    siteFetches,
    devIdp,
    readiness: {
      mongo: async () => {
        if (!deps.mongo.db) throw new Error('mongo connection is not open');
        await deps.mongo.db.command({ ping: 1 });
      },
      bus: () => bus.ping(),
    },
  });

  let subscriptions: Subscription[] = [];
  return {
    app,
    devIdp,
    async start() {
      if (subscriptions.length > 0) return;
      subscriptions = await subscribeConsumers(bus, users, logger);
      logger.info({ devIdp: Boolean(devIdp) }, 'auth service started');
    },
    async stop() {
      const closing = subscriptions;
      subscriptions = [];
      await Promise.all(closing.map((subscription) => subscription.close()));
      await shopContext.close();
    },
    settle: () => shopContext.settle(),
  };
}
