import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import mongoose, { type Connection } from 'mongoose';
import { createInProcessBroker, createInProcessBus, type InProcessBroker, type MessageBus } from '@productgen/bus';
import { billingInternalRoutes, OUT_OF_CREDITS_MESSAGE } from '@productgen/contracts';
import { startEmbeddedMongo, type EmbeddedMongo } from '@productgen/embedded-mongo';
import { startEmbeddedS3, type EmbeddedS3 } from '@productgen/embedded-s3';
import {
  createLogger,
  createObjectStore,
  errorHandler,
  loadConfig,
  serveRoute,
  type ObjectStore,
} from '@productgen/service-kit';
import { listObjectKeys } from '../../../tests/support/object-store';
import { bulkConfigSchema, createBulkService, type BulkService } from '../src';

/**
 * Security review item 5: a batch upload from an account without a single credit is refused before its zip is read
 * or stored (the zip's image count, and so the credits it needs, is known only after reading it).
 */
describe('batch upload without credits', () => {
  let dir: string;
  let mongo: EmbeddedMongo;
  let s3: EmbeddedS3;
  let broker: InProcessBroker;
  let bus: MessageBus;
  let connection: Connection;
  let store: ObjectStore;
  let bulk: BulkService;
  let billing: http.Server;
  let bulkUrl: string;
  let bulkServer: http.Server;
  /** Billing's balance per user, served by its internal route as declared in the contracts. */
  const balances = new Map<string, number>();

  async function serve(app: express.Express): Promise<{ server: http.Server; url: string }> {
    const server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  }

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'bulk-credit-check-'));
    mongo = await startEmbeddedMongo({ port: 0, dbPath: path.join(dir, 'mongo') });
    s3 = await startEmbeddedS3({ dataDir: path.join(dir, 's3') });
    broker = createInProcessBroker();
    const logger = createLogger({ service: 'bulk-test', level: 'silent' });
    bus = createInProcessBus(broker, { logger });
    connection = await mongoose.createConnection(mongo.url, { dbName: 'bulk' }).asPromise();
    store = createObjectStore({
      endpoint: s3.endpoint,
      accessKey: s3.accessKey,
      secretKey: s3.secretKey,
      bucket: 'bulk-test',
    });
    const billingApp = express();
    serveRoute(billingApp, billingInternalRoutes.userBilling, ({ params }) => ({
      credits: balances.get(params.userId) ?? 0,
      purchaser: false,
    }));
    billingApp.use(errorHandler());
    let billingUrl: string;
    ({ server: billing, url: billingUrl } = await serve(billingApp));
    const config = loadConfig(bulkConfigSchema, {
      NODE_ENV: 'test',
      BILLING_URL: billingUrl,
      // Nothing here may reach generation: a refused upload stops before any product exists.
      GENERATION_URL: 'http://127.0.0.1:9',
    });
    bulk = await createBulkService({ config, logger, mongo: connection, bus, objectStore: store });
    const outer = express();
    outer.use(bulk.app);
    ({ server: bulkServer, url: bulkUrl } = await serve(outer));
  }, 60_000);

  afterAll(async () => {
    await new Promise((resolve) => bulkServer?.close(resolve));
    await new Promise((resolve) => billing?.close(resolve));
    await bulk?.stop();
    await connection?.close();
    await bus?.close();
    await broker?.close();
    await s3?.stop();
    await mongo?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 60_000);

  /** A multipart upload whose file part is `bytes`, as the create screen sends it. */
  async function upload(userId: string, bytes: Buffer, type = 'application/zip') {
    const form = new FormData();
    form.append('zipFile', new Blob([new Uint8Array(bytes)], { type }), 'images.zip');
    form.append('numGenerates', '1');
    const response = await fetch(`${bulkUrl}/image-gen/bulk-zip`, {
      method: 'POST',
      headers: { 'X-User-Id': userId },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as { code?: number; error?: string } };
  }

  test('a balance of 0: 402 with the out-of-credits text before the zip is read; nothing stored, no job', async () => {
    const answer = await upload('user-without-credits', Buffer.alloc(2 * 1024 * 1024, 7));
    expect(answer).toEqual({ status: 402, body: { code: 402, error: OUT_OF_CREDITS_MESSAGE } });
    expect(await connection.collection('bulk_jobs').countDocuments()).toBe(0);
    expect(await listObjectKeys(s3, store.bucket, '')).toEqual([]);
  });

  test('with credits the upload is read and checked as before (a file that is not a zip: 400)', async () => {
    balances.set('user-with-credits', 3);
    const answer = await upload('user-with-credits', Buffer.alloc(1024, 7), 'text/plain');
    expect(answer).toEqual({ status: 400, body: { code: 400, error: 'Please upload a valid zip file.' } });
  });
});
