import { randomBytes } from 'node:crypto';
import type { Express } from 'express';
import { createInProcessBus, type MessageBus } from '@productgen/bus';
import { authConfigSchema, createAuthService } from '@productgen/auth-service';
import { billingConfigSchema, createBillingService } from '@productgen/billing-service';
import { bulkConfigSchema, createBulkService } from '@productgen/bulk-service';
import { createGenerationService, generationConfigSchema } from '@productgen/generation-service';
import { createGateway, gatewayConfigSchema } from '@productgen/gateway';
import {
  connectMongo,
  createLogger,
  createObjectStore,
  loadConfig,
  MongoHitCounter,
  type Lifecycle,
  type Logger,
  type ObjectStore,
} from '@productgen/service-kit';
import { launcherDevIdentityProvider, type DevstackConfig } from './config';
import type { EmbeddedInfrastructure } from './infrastructure';

/** What a composed service gets from the launcher: its environment, a logger, its own database and a bus. */
export interface ServiceContext {
  /** process.env plus the launcher's decisions (never a URL the service should not use in embedded mode). */
  env: Record<string, string | undefined>;
  logger: Logger;
  /** Opens (and registers for shutdown) a connection to this service's own database. */
  openDatabase(dbName: string): Promise<import('mongoose').Connection>;
  /** A connection of this service to the in-process broker. */
  bus: MessageBus;
  /** The embedded S3 endpoint, for a bucket of this service's. */
  openObjectStore(bucket: string): ObjectStore;
}

/** A back-end service as the launcher composes it: the same factory its main.ts calls in distributed mode. */
export interface ComposedService {
  app: Express;
  start?(): Promise<void>;
  stop(): Promise<void>;
}

interface ServiceDefinition {
  name: string;
  /** The gateway variable that gets this service's internal base URL. */
  urlVariable: 'AUTH_URL' | 'BILLING_URL' | 'GENERATION_URL' | 'BULK_URL';
  create(context: ServiceContext): Promise<ComposedService>;
}

/** The back-end services of the platform, in start order. Later services may call earlier ones. */
const services: ServiceDefinition[] = [
  {
    name: 'auth',
    urlVariable: 'AUTH_URL',
    async create({ env, logger, openDatabase, bus }) {
      const config = loadConfig(authConfigSchema, env);
      return createAuthService({ config, logger, mongo: await openDatabase(config.MONGO_DB_NAME), bus });
    },
  },
  {
    name: 'billing',
    urlVariable: 'BILLING_URL',
    async create({ env, logger, openDatabase, bus }) {
      const config = loadConfig(billingConfigSchema, env);
      return createBillingService({ config, logger, mongo: await openDatabase(config.MONGO_DB_NAME), bus });
    },
  },
  {
    name: 'generation',
    urlVariable: 'GENERATION_URL',
    async create({ env, logger, openDatabase, openObjectStore, bus }) {
      const config = loadConfig(generationConfigSchema, env);
      const service = await createGenerationService({
        config,
        logger,
        mongo: await openDatabase(config.MONGO_DB_NAME),
        bus,
        objectStore: openObjectStore(config.S3_BUCKET),
        batchPhotos: openObjectStore(config.BATCH_PHOTOS_BUCKET),
      });
      return {
        app: service.app,
        start: () => service.start(),
        // The service's stop ends the studio engine's threads too.
        stop: () => service.stop(),
      };
    },
  },
  {
    name: 'bulk',
    urlVariable: 'BULK_URL',
    async create({ env, logger, openDatabase, openObjectStore, bus }) {
      const config = loadConfig(bulkConfigSchema, env);
      return createBulkService({
        config,
        logger,
        mongo: await openDatabase(config.MONGO_DB_NAME),
        bus,
        objectStore: openObjectStore(config.S3_BUCKET),
      });
    },
  },
];

export interface EmbeddedPlatform {
  apiUrl: string;
  /** Internal base URL of each composed service, by gateway variable. */
  serviceUrls: Record<string, string>;
}

/**
 * Composes every service in this process (DESIGN.md §2, embedded column): each on its own loopback port, as in
 * distributed mode, with the gateway in front on API_PORT. Everything is registered with the lifecycle, so
 * Ctrl-C drains the HTTP servers, stops consumers, then closes buses and databases.
 */
export async function startEmbeddedPlatform(options: {
  config: DevstackConfig;
  infrastructure: EmbeddedInfrastructure;
  lifecycle: Lifecycle;
  webOrigin: string;
}): Promise<EmbeddedPlatform> {
  const { config, infrastructure, lifecycle } = options;
  const env: Record<string, string | undefined> = {
    ...process.env,
    NODE_ENV: config.NODE_ENV,
    LOG_LEVEL: config.LOG_LEVEL,
    MONGO_URL: infrastructure.mongoUrl,
    S3_ENDPOINT: infrastructure.s3.endpoint,
    S3_ACCESS_KEY: infrastructure.s3.accessKey,
    S3_SECRET_KEY: infrastructure.s3.secretKey,
    PRODUCT_NAME: config.PRODUCT_NAME,
    WEB_URL: options.webOrigin,
    API_PUBLIC_URL: `http://${config.PUBLIC_HOST}:${config.API_PORT}`,
    DEV_IDENTITY_PROVIDER: String(launcherDevIdentityProvider(config)),
    // The services sign and verify each other's calls with one secret: a fresh one per start unless one is given.
    SERVICE_AUTH_SECRET: process.env.SERVICE_AUTH_SECRET ?? randomBytes(32).toString('hex'),
  };
  if (config.GOOGLE_CLIENT_ID) env.GOOGLE_CLIENT_ID = config.GOOGLE_CLIENT_ID;

  const serviceUrls: Record<string, string> = {};
  for (const definition of services) {
    const serviceLogger = createLogger({ service: definition.name, level: config.LOG_LEVEL });
    const bus = createInProcessBus(infrastructure.broker, { logger: serviceLogger });
    lifecycle.onShutdown(`${definition.name} bus`, () => bus.close());
    const context: ServiceContext = {
      env: { ...env, ...serviceUrls },
      logger: serviceLogger,
      bus,
      openObjectStore: (bucket) => createObjectStore({ ...infrastructure.s3, bucket }),
      async openDatabase(dbName) {
        const mongo = await connectMongo({ url: infrastructure.mongoUrl, dbName, logger: serviceLogger });
        lifecycle.onShutdown(`${definition.name} database`, () => mongo.close());
        return mongo.connection;
      },
    };
    const service = await definition.create(context);
    await service.start?.();
    lifecycle.onShutdown(definition.name, () => service.stop());
    const running = await lifecycle.serve(service.app, 0, '127.0.0.1');
    serviceUrls[definition.urlVariable] = `http://127.0.0.1:${running.port}`;
  }

  const webOrigins = [options.webOrigin, `http://127.0.0.1:${config.WEB_PORT}`, `http://localhost:${config.WEB_PORT}`];
  const gatewayConfig = loadConfig(gatewayConfigSchema, {
    ...env,
    ...serviceUrls,
    API_PORT: String(config.API_PORT),
    PORT: undefined,
    WEB_ORIGINS: [...new Set(webOrigins)].join(','),
    GOOGLE_CLIENT_ID: config.GOOGLE_CLIENT_ID,
  });
  const gatewayLogger = createLogger({ service: 'gateway', level: config.LOG_LEVEL });
  const gatewayBus = createInProcessBus(infrastructure.broker, { logger: gatewayLogger });
  lifecycle.onShutdown('gateway bus', () => gatewayBus.close());
  const gatewayMongo = await connectMongo({
    url: infrastructure.mongoUrl,
    dbName: gatewayConfig.MONGO_DB_NAME,
    logger: gatewayLogger,
  });
  lifecycle.onShutdown('gateway database', () => gatewayMongo.close());
  const gateway = createGateway({
    config: gatewayConfig,
    logger: gatewayLogger,
    bus: gatewayBus,
    rateLimitCounter: await MongoHitCounter.open(gatewayMongo.connection, gatewayConfig.RATE_LIMIT_WINDOW_MS),
  });
  lifecycle.onShutdown('gateway', () => gateway.stop());
  await gateway.start();
  const api = await lifecycle.serve(gateway.app, config.API_PORT, config.HOST);
  return { apiUrl: `http://${config.PUBLIC_HOST}:${api.port}`, serviceUrls };
}
