import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import type { Connection } from 'mongoose';
import { createInProcessBroker, createInProcessBus, type InProcessBroker, type MessageBus } from '@productgen/bus';
import { startEmbeddedS3, type EmbeddedS3 } from '@productgen/embedded-s3';
import {
  billingInternalRoutes,
  generationInternalRoutes,
  parseMessage,
  topics,
  type CreateBulkGenerationRequest,
} from '@productgen/contracts';
import {
  createLogger,
  createObjectStore,
  errorHandler,
  loadConfig,
  serveRoute,
  type ObjectStore,
} from '@productgen/service-kit';
import { serviceCallHeaders, TEST_SERVICE_AUTH_SECRET } from '@productgen/test-kit';
import { MongoFixture } from '@productgen/test-kit/mongo-fixture';
import { bulkConfigSchema, createBulkService, type BulkService } from '../src';

export interface Served {
  server: http.Server;
  url: string;
}

export async function serve(app: express.Express): Promise<Served> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** An express app answering some of a service's internal routes (see serveRoute), errors in AppError's shape. */
export function stubService(declare: (app: express.Express) => void): express.Express {
  const app = express();
  app.use(express.json({ limit: '32mb' }));
  declare(app);
  app.use(errorHandler());
  return app;
}

/**
 * The bulk service on the real embedded MongoDB and S3 servers, with billing and generation answered by the test's
 * own stand-ins of their internal routes. The S3 server can be stopped and started again on the same port and data.
 */
export interface BulkTestBed {
  bulk: BulkService;
  url: string;
  connection: Connection;
  /** The service's bus: a test stands in for generation's outcome messages on it (see `announceCompleted`). */
  bus: MessageBus;
  store: ObjectStore;
  /** Generation's bucket as bulk reads it (Download All): a stand-in stores its images' objects here. */
  generationImages: ObjectStore;
  s3: EmbeddedS3;
  stopS3(): Promise<void>;
  restartS3(): Promise<void>;
  close(): Promise<void>;
}

/** Billing for a purchaser whose credits cover the batch; each give-back is recorded as `<generation>:<image index>`. */
export function purchaserBilling(givenBack: string[]): express.Express {
  return stubService((app) => {
    serveRoute(app, billingInternalRoutes.userBilling, () => ({ credits: 100, purchaser: true }));
    serveRoute(app, billingInternalRoutes.reserveBatchCredits, () => ({ balance: 95, watermark: false }));
    serveRoute(app, billingInternalRoutes.giveBackCredit, ({ body }) => {
      givenBack.push(`${body.generationUuid}:${body.imageIndex}`);
      return { balance: 96, refunded: true };
    });
  });
}

/**
 * Generation taking every product handed over (queued, one image) once `onHandOver` has seen it (it may throw: that
 * hand-over is refused as generation would refuse it); it lists no generations.
 */
export function acceptingGeneration(
  onHandOver: (body: CreateBulkGenerationRequest) => Promise<void> | void = () => undefined,
): express.Express {
  return stubService((app) => {
    serveRoute(app, generationInternalRoutes.createBulkGeneration, async ({ body }) => {
      await onHandOver(body);
      return {
        generation_uuid: body.generation_uuid,
        outcome: 'queued' as const,
        category: null,
        images: 1,
        error: null,
      };
    });
    serveRoute(app, generationInternalRoutes.listBulkGenerations, () => ({ generations: [] }));
  });
}

export async function startBulkTestBed(options: {
  name: string;
  billing: express.Express;
  generation: express.Express;
  env?: Record<string, string>;
  /** The service's clock (tests that let days pass). */
  now?: () => Date;
}): Promise<BulkTestBed> {
  const dir = await mkdtemp(path.join(tmpdir(), `${options.name}-`));
  // Whatever started is stopped again when a later step fails, so a failed setup does not keep jest running.
  const started: Array<() => Promise<unknown>> = [() => rm(dir, { recursive: true, force: true })];
  try {
    return await startOn(dir, started, options);
  } catch (error) {
    for (const stop of started.reverse()) await stop().catch(() => undefined);
    throw error;
  }
}

async function startOn(
  dir: string,
  started: Array<() => Promise<unknown>>,
  options: Parameters<typeof startBulkTestBed>[0],
): Promise<BulkTestBed> {
  const mongo = new MongoFixture(options.name);
  started.push(() => mongo.stop());
  await mongo.start();
  let s3 = await startEmbeddedS3({ dataDir: path.join(dir, 's3') });
  started.push(() => s3.stop()); // the current server, after a restart too
  const s3Port = s3.port;
  const broker: InProcessBroker = createInProcessBroker();
  const logger = createLogger({ service: options.name, level: 'silent' });
  const bus: MessageBus = createInProcessBus(broker, { logger });
  started.push(async () => broker.close());
  started.push(() => bus.close());
  const connection = await mongo.connect('bulk');
  // The server keeps its port and keys across restartS3, so these stores reach the restarted one too.
  const bucketStore = (bucket: string) =>
    createObjectStore({ endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket });
  const store = bucketStore('bulk-test');
  const generationImages = bucketStore('generation-test');
  await generationImages.ensureBucket();
  const billing = await serve(options.billing);
  started.push(() => new Promise((resolve) => billing.server.close(resolve)));
  const generation = await serve(options.generation);
  started.push(() => new Promise((resolve) => generation.server.close(resolve)));
  const config = loadConfig(bulkConfigSchema, {
    NODE_ENV: 'test',
    SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET,
    BILLING_URL: billing.url,
    GENERATION_URL: generation.url,
    ...options.env,
  });
  const bulk = await createBulkService({
    config,
    logger,
    mongo: connection,
    bus,
    objectStore: store,
    generationImages,
    now: options.now,
  });
  const outer = express();
  outer.use(bulk.app);
  const bulkServer = await serve(outer);

  return {
    bulk,
    url: bulkServer.url,
    connection,
    bus,
    store,
    generationImages,
    get s3() {
      return s3;
    },
    stopS3: () => s3.stop(),
    async restartS3() {
      s3 = await startEmbeddedS3({ dataDir: path.join(dir, 's3'), port: s3Port });
    },
    async close() {
      await new Promise((resolve) => bulkServer.server.close(resolve));
      await bulk.stop();
      for (const stop of started.reverse()) await stop();
    },
  };
}

/** A batch upload as the create screen sends it (multipart `zipFile` and `numGenerates`). */
export async function uploadBatch(
  bulkUrl: string,
  userId: string,
  zip: Buffer,
  fields: Record<string, string> = { numGenerates: '1' },
  type = 'application/zip',
): Promise<{ status: number; body: { bulk_job_uuid?: string; code?: number; error?: string } }> {
  const form = new FormData();
  form.append('zipFile', new Blob([new Uint8Array(zip)], { type }), 'images.zip');
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const response = await fetch(`${bulkUrl}/image-gen/bulk-zip`, {
    method: 'POST',
    headers: serviceCallHeaders(userId),
    body: form,
  });
  return { status: response.status, body: (await response.json()) as { code?: number; error?: string } };
}

/** What generation publishes when a batch product's generation settles with images: bulk's progress comes from it. */
export async function announceCompleted(
  bus: MessageBus,
  generation: { userId: string; bulkJobUuid: string; generationUuid: string; images: number[] },
): Promise<void> {
  const payload = parseMessage(topics.generationCompleted, {
    userId: generation.userId,
    generation_uuid: generation.generationUuid,
    images_completed: generation.images.length,
    images_failed: 0,
    thumbnail_object_key: null,
    image_indexes: generation.images,
    bulk_job_uuid: generation.bulkJobUuid,
    at: new Date().toISOString(),
  });
  await bus.publish(topics.generationCompleted, payload, {
    messageId: `${topics.generationCompleted}:${generation.generationUuid}`,
  });
}
