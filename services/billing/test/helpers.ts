import { behindGateway, serviceCallHeaders, TEST_SERVICE_AUTH_SECRET } from '@productgen/test-kit';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mongoose, { type Connection } from 'mongoose';
import {
  createInProcessBroker,
  createInProcessBus,
  type BusMessage,
  type InProcessBroker,
  type MessageBus,
} from '@productgen/bus';
import { topics } from '@productgen/contracts';
import { startEmbeddedMongo, type EmbeddedMongo } from '@productgen/embedded-mongo';
import { createLogger, loadConfig } from '@productgen/service-kit';
import {
  DEV_CHECKOUT_WEBHOOK_SECRET,
  billingConfigSchema,
  createBillingService,
  signLikeStripe,
  type BillingService,
  type BillingServiceDeps,
} from '../src';

export const silentLogger = createLogger({ service: 'billing-test', level: 'silent' });
export const HOUR_MS = 60 * 60 * 1000;

/** One embedded MongoDB-compatible server per test file; each service instance gets its own database. */
export class MongoFixture {
  private server: EmbeddedMongo | undefined;
  private dbPath: string | undefined;
  private readonly connections: Connection[] = [];

  async start(): Promise<void> {
    this.dbPath = await mkdtemp(path.join(tmpdir(), 'billing-test-'));
    this.server = await startEmbeddedMongo({ port: 0, dbPath: this.dbPath });
  }

  async connect(dbName = `billing_${randomBytes(4).toString('hex')}`): Promise<Connection> {
    if (!this.server) throw new Error('MongoFixture not started');
    const connection = await mongoose.createConnection(this.server.url, { dbName }).asPromise();
    this.connections.push(connection);
    return connection;
  }

  async stop(): Promise<void> {
    await Promise.all(this.connections.map((connection) => connection.close()));
    await this.server?.stop();
    if (this.dbPath) await rm(this.dbPath, { recursive: true, force: true });
  }
}

/** A clock tests move forward by hand. */
export class TestClock {
  private current = Date.now();
  readonly now = (): Date => new Date(this.current);
  advance(ms: number): void {
    this.current += ms;
  }
}

/** Any request that tries to leave the machine fails the test run loudly. */
export const loopbackOnlyFetch: typeof fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
    throw new Error(`test tried to reach ${url.host}: nothing may leave the machine`);
  }
  return fetch(input, init);
};

export interface TestService {
  service: BillingService;
  connection: Connection;
  bus: MessageBus;
  broker: InProcessBroker;
  clock: TestClock;
  /** Base URL of the service listening on a loopback port. */
  url: string;
  /** Every credits.balance_changed the service published from the first call on (one subscription, made then). */
  balanceChanges(): Promise<BusMessage[]>;
  close(): Promise<void>;
}

export interface TestServiceOptions extends Partial<Omit<BillingServiceDeps, 'config' | 'logger' | 'mongo'>> {
  env?: Record<string, string>;
  connection?: Connection;
}

/** The service as the embedded launcher builds it, listening on a loopback port: real database, in-process bus. */
export async function startTestService(mongo: MongoFixture, options: TestServiceOptions = {}): Promise<TestService> {
  const config = loadConfig(billingConfigSchema, {
    SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET,
    NODE_ENV: 'test',
    WEB_URL: 'http://localhost:3000',
    API_PUBLIC_URL: 'http://localhost:8080',
    // As the embedded launcher runs it: the dev checkout on (a test with Stripe's variables gets Stripe).
    DEV_IDENTITY_PROVIDER: 'true',
    ...options.env,
  });
  const connection = options.connection ?? (await mongo.connect());
  const broker = createInProcessBroker();
  const ownBus = options.bus === undefined;
  const bus = options.bus ?? createInProcessBus(broker, { logger: silentLogger });
  const clock = new TestClock();
  const { env: _env, connection: _connection, bus: _bus, ...deps } = options;
  const service = await createBillingService({
    config,
    logger: silentLogger,
    mongo: connection,
    bus,
    now: clock.now,
    fetchImpl: loopbackOnlyFetch,
    ...deps,
  });
  await service.start();
  const server = http.createServer(behindGateway(service.app));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let balanceChanges: Promise<BusMessage[]> | undefined;
  return {
    service,
    connection,
    bus,
    broker,
    clock,
    url: `http://127.0.0.1:${port}`,
    balanceChanges: () =>
      (balanceChanges ??= collectMessages(bus, `billing-test.balance-changes.${randomUUID()}`, [
        topics.creditsBalanceChanged,
      ])),
    async close() {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await service.stop();
      if (ownBus) await bus.close();
      await broker.close();
    },
  };
}

/** A fresh user id (what auth's ObjectIds look like). */
export function newUserId(): string {
  return new mongoose.Types.ObjectId().toHexString();
}

export async function grantSignupBonus(bus: MessageBus, userId: string): Promise<void> {
  await bus.publish(
    topics.userSignedUp,
    { userId, email: `${userId}@example.com`, name: 'Test User', ref_code: null, at: new Date().toISOString() },
    { messageId: `${topics.userSignedUp}:${userId}` },
  );
}

/** Collects the messages of some topics on a queue of its own. */
export async function collectMessages(bus: MessageBus, queue: string, topicList: string[]): Promise<BusMessage[]> {
  const received: BusMessage[] = [];
  await bus.subscribe(queue, topicList, async (message) => {
    received.push(message);
  });
  return received;
}

/** Polls `check` until it returns true (state reached through a background consumer), or fails after the timeout. */
export async function waitFor(
  check: () => Promise<boolean> | boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface JsonAnswer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** A JSON call to the running service; `userId` is the user the gateway's signed token names. */
export async function call<T = Record<string, unknown>>(
  service: TestService,
  method: string,
  pathAndQuery: string,
  options: { userId?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<JsonAnswer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  Object.assign(headers, serviceCallHeaders(options.userId));
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${service.url}${pathAndQuery}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    redirect: 'manual',
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T, headers: response.headers };
}

/** POST /payments/create-checkout-session as the gateway sends it for a signed-in buyer of `packageId`. */
export function createCheckout(
  service: TestService,
  userId: string,
  packageId: number,
  headers?: Record<string, string>,
): Promise<JsonAnswer<{ sessionId: string; url: string }>> {
  return call(service, 'POST', '/payments/create-checkout-session', { userId, body: { package: packageId }, headers });
}

export async function balanceOf(service: TestService, userId: string): Promise<number> {
  return (await service.service.billingOf(userId)).credits;
}

/** POST /internal/credits/reserve, as the generation service calls it. */
export async function reserve(
  service: TestService,
  userId: string,
  count: number,
  generationUuid: string = randomUUID(),
) {
  return call<{ balance: number; watermark: boolean; code?: number; error?: string }>(
    service,
    'POST',
    '/internal/credits/reserve',
    { body: { userId, generationUuid, count } },
  );
}

/** POST /internal/credits/give-back, as the generation service calls it. */
export async function giveBack(
  service: TestService,
  userId: string,
  generationUuid: string,
  imageIndex: number,
  reason: 'failed' | 'skipped' = 'failed',
) {
  return call<{ balance: number; refunded: boolean }>(service, 'POST', '/internal/credits/give-back', {
    body: { userId, generationUuid, imageIndex, reason },
  });
}

/**
 * A paid checkout of `packageId` for the user, delivered as the payment provider delivers it: a signed
 * checkout.session.completed on the webhook. The same `sessionId` again is the provider retrying its webhook.
 */
export async function topUp(
  service: TestService,
  userId: string,
  packageId: 1 | 2 | 3 = 1,
  sessionId = `cs_test_${randomBytes(8).toString('hex')}`,
  webhookSecret = DEV_CHECKOUT_WEBHOOK_SECRET,
): Promise<void> {
  const payload = JSON.stringify({
    id: `evt_${randomBytes(6).toString('hex')}`,
    type: 'checkout.session.completed',
    data: { object: { id: sessionId, payment_status: 'paid', metadata: { userId, packageId: String(packageId) } } },
  });
  const response = await fetch(`${service.url}/payments/webhook`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': signLikeStripe(payload, webhookSecret, service.clock.now()),
    },
    body: payload,
  });
  expect(response.status).toBe(200);
}

/**
 * Waits until billing published credits.balance_changed with this balance for the user, as auth waits for it. The
 * ledger publishes it once the operation has completed, entries included; the account's balance alone moves a
 * moment before the entries appear (the ledger's stated invariant, data/ledger.ts), so it is not what to wait for.
 */
export async function waitForBalanceMessage(
  service: TestService,
  userId: string,
  balance: number,
  what: string,
): Promise<void> {
  const messages = await service.balanceChanges();
  await waitFor(
    () =>
      messages.some((message) => {
        const payload = message.payload as { userId: string; balance: number };
        return payload.userId === userId && payload.balance === balance;
      }),
    what,
  );
}

/** A new user whose 10 signup credits have been granted completely (balance and entry). */
export async function signedUpUser(service: TestService, userId: string = newUserId()): Promise<string> {
  await service.balanceChanges();
  await grantSignupBonus(service.bus, userId);
  await waitForBalanceMessage(service, userId, 10, 'the signup bonus');
  return userId;
}

/** A user with exactly `credits` (at most 10): the signup bonus, then a reservation of the rest. */
export async function userWithCredits(service: TestService, credits: number): Promise<string> {
  const userId = await signedUpUser(service);
  if (credits < 10) expect((await reserve(service, userId, 10 - credits)).status).toBe(200);
  return userId;
}

/** Every ledger entry of a user, straight from the collection. */
export async function entriesOf(service: TestService, userId: string) {
  return service.connection
    .collection<{ source_ref: string; amount: number; type: 'increase' | 'decrease'; balance_after: number }>(
      'ledger_entries',
    )
    .find({ user_id: userId })
    .toArray();
}
