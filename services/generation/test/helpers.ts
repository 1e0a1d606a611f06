import { addGatewayToken, serviceCallHeaders, TEST_SERVICE_AUTH_SECRET } from '@productgen/test-kit';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import type { Connection } from 'mongoose';
import request from 'supertest';
import { createInProcessBroker, createInProcessBus, type InProcessBroker, type MessageBus } from '@productgen/bus';
import type { GenerationStatusResponse } from '@productgen/contracts';
import { startEmbeddedS3, type EmbeddedS3 } from '@productgen/embedded-s3';
import { createLogger, createObjectStore, loadConfig, type ObjectStore } from '@productgen/service-kit';
import { closeStudioThreads } from '@productgen/studio-engine';
import { startAuthFixture, type AuthFixture } from '@productgen/test-kit/auth-fixture';
import { BillingFixture } from '@productgen/test-kit/billing-fixture';
import { MongoFixture } from '@productgen/test-kit/mongo-fixture';
import { createGenerationService, generationConfigSchema, type GenerationService } from '../src';

export const silentLogger = createLogger({ service: 'generation-test', level: 'silent' });
export const PHOTOS_DIR = path.resolve(__dirname, '../../../../shared/photos');
export const SHARED_MODELS_DIR = path.resolve(__dirname, '../../../../shared/models');

/** Embedded MongoDB and S3 in temporary folders, the in-process broker, billing and auth fixtures. */
export class Stack {
  readonly mongo = new MongoFixture('generation');
  s3!: EmbeddedS3;
  broker!: InProcessBroker;
  readonly billing = new BillingFixture();
  auth!: AuthFixture;
  private dir = '';
  private readonly closers: (() => Promise<void>)[] = [];

  async start(): Promise<void> {
    this.dir = await mkdtemp(path.join(tmpdir(), 'generation-test-'));
    await this.mongo.start();
    this.s3 = await startEmbeddedS3({ dataDir: path.join(this.dir, 's3') });
    this.broker = createInProcessBroker();
    [this.auth] = await Promise.all([startAuthFixture(), this.billing.start()]);
  }

  objectStore(bucket = 'generation-test'): ObjectStore {
    return createObjectStore({
      endpoint: this.s3.endpoint,
      accessKey: this.s3.accessKey,
      secretKey: this.s3.secretKey,
      bucket,
    });
  }

  connect(dbName: string): Promise<Connection> {
    return this.mongo.connect(dbName);
  }

  bus(): MessageBus {
    const bus = createInProcessBus(this.broker, { logger: silentLogger });
    this.closers.push(() => bus.close());
    return bus;
  }

  /** A generation service on this stack; several share one database, bucket and broker (API and workers). */
  async service(
    options: { dbName?: string; env?: Record<string, string>; bus?: MessageBus } = {},
  ): Promise<GenerationService & { connection: Connection; bus: MessageBus }> {
    const config = loadConfig(generationConfigSchema, {
      SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET,
      NODE_ENV: 'test',
      MODELS_DIR: SHARED_MODELS_DIR,
      INTERNAL_TIMEOUT_MS: '10000',
      // Tests here sweep by calling `sweeper.sweep()`: a timed sweep of another service on the same database could
      // take the very generation a test is about to sweep (a rare CI failure of the publish-sweep test).
      SWEEP_INTERVAL_MS: '3600000',
      BILLING_URL: this.billing.url,
      AUTH_URL: this.auth.url,
      ...options.env,
    });
    const connection = await this.connect(options.dbName ?? 'generation');
    const bus = options.bus ?? this.bus();
    const service = await createGenerationService({
      config,
      logger: silentLogger,
      mongo: connection,
      bus,
      objectStore: this.objectStore(),
    });
    await service.start();
    this.closers.push(() => service.stop());
    // Tests call the app directly, standing in for the gateway (its signed token naming the X-User-Id they send).
    const app = express().use((req, _res, next) => {
      addGatewayToken(req);
      next();
    }, service.app);
    return Object.assign(service, { app, connection, bus });
  }

  async stop(): Promise<void> {
    for (const close of this.closers.reverse()) await close().catch(() => undefined);
    // The inference thread's message port would keep the test process alive after the last test.
    await closeStudioThreads();
    await this.broker?.close();
    await Promise.all([this.billing.stop(), this.auth?.close()]);
    await this.s3?.stop();
    await this.mongo.stop();
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
  }
}

/** A describe block's stack and the one generation service it tests; the service is set before the first test. */
export interface ServiceSuite {
  stack: Stack;
  app: Awaited<ReturnType<Stack['service']>>;
}

/**
 * Starts a stack and one generation service on it (with `env`) before a describe block's tests, and stops them after
 * them (the stack's stop ends the studio's inference threads too).
 */
export function serviceSuite(env: Record<string, string> = {}): ServiceSuite {
  const suite = { stack: new Stack() } as ServiceSuite;
  beforeAll(async () => {
    await suite.stack.start();
    suite.app = await suite.stack.service({ env });
  }, 120_000);
  afterAll(() => suite.stack.stop(), 60_000);
  return suite;
}

/** One of the demo photos (shared/photos/demo), as bytes. */
export const demoPhoto = (file: string) => readFile(path.join(PHOTOS_DIR, 'demo', file));

/**
 * What bulk's batch reservation did for one product, stood in by the billing fixture: `count` of the user's credits
 * charged to a new generation uuid, which it returns.
 */
export function batchReservation(stack: Stack, userId: string, count: number): string {
  const uuid = randomUUID();
  stack.billing.reservations.set(uuid, { userId, count, answer: { balance: 0, watermark: true } });
  return uuid;
}

export const newUserId = () => `user${randomBytes(6).toString('hex')}`;

export function as(app: Express.Application | GenerationService['app'], userId: string) {
  const agent = request(app as GenerationService['app']);
  return {
    get: (url: string) => agent.get(url).set(serviceCallHeaders(userId)),
    post: (url: string, body?: object) =>
      body === undefined
        ? agent.post(url).set(serviceCallHeaders(userId))
        : agent.post(url).set(serviceCallHeaders(userId)).send(body),
    put: (url: string, body: object) => agent.put(url).set(serviceCallHeaders(userId)).send(body),
    patch: (url: string, body: object) => agent.patch(url).set(serviceCallHeaders(userId)).send(body),
  };
}

/** Polls the status as the client does until the generation is done and every fix has run. */
export async function waitForGeneration(
  app: GenerationService['app'],
  userId: string,
  uuid: string,
  timeoutMs = 90_000,
): Promise<GenerationStatusResponse> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await as(app, userId).get(`/image-gen/status/${uuid}`);
    if (response.status !== 200)
      throw new Error(`status answered ${response.status}: ${JSON.stringify(response.body)}`);
    const status = response.body as GenerationStatusResponse;
    const fixed = status.images.every((image) => image.metadata.fixes_done.every(Boolean));
    if ((status.status === 'completed' || status.status === 'failed') && fixed) return status;
    if (Date.now() > deadline) throw new Error(`generation ${uuid} did not finish: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** Reads a binary answer into a Buffer (supertest leaves images and zips unparsed otherwise). */
export function binary(res: request.Response, callback: (error: Error | null, body: Buffer) => void): void {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => callback(null, Buffer.concat(chunks)));
  stream.on('error', (error: Error) => callback(error, Buffer.alloc(0)));
}
