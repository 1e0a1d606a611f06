import type { RequestListener } from 'node:http';
import { behindGateway, TEST_SERVICE_AUTH_SECRET } from '@productgen/test-kit';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mongoose, { type Connection } from 'mongoose';
import request from 'supertest';
import {
  createInProcessBroker,
  createInProcessBus,
  type BusMessage,
  type InProcessBroker,
  type MessageBus,
} from '@productgen/bus';
import type { AuthSession } from '@productgen/contracts';
import { startEmbeddedMongo, type EmbeddedMongo } from '@productgen/embedded-mongo';
import { createLogger, loadConfig } from '@productgen/service-kit';
import { authConfigSchema, createAuthService, type AuthService, type AuthServiceDeps } from '../src';

export const silentLogger = createLogger({ service: 'auth-test', level: 'silent' });
export const TEST_CLIENT_ID = 'test-client-id.apps.example';
export const DAY_MS = 24 * 60 * 60 * 1000;

/** One embedded MongoDB-compatible server per test file; each service instance gets its own database. */
export class MongoFixture {
  private server: EmbeddedMongo | undefined;
  private dbPath: string | undefined;
  private readonly connections: Connection[] = [];

  async start(): Promise<void> {
    this.dbPath = await mkdtemp(path.join(tmpdir(), 'auth-test-'));
    this.server = await startEmbeddedMongo({ port: 0, dbPath: this.dbPath });
  }

  async connect(dbName = `auth_${randomBytes(4).toString('hex')}`): Promise<Connection> {
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

export interface TestService {
  /** The service, its app as the gateway's forwards reach it (test-kit behindGateway). */
  service: Omit<AuthService, 'app'> & { app: RequestListener };
  connection: Connection;
  bus: MessageBus;
  broker: InProcessBroker;
  clock: TestClock;
  close(): Promise<void>;
}

export interface TestServiceOptions extends Partial<Omit<AuthServiceDeps, 'config' | 'logger' | 'mongo'>> {
  env?: Record<string, string>;
  connection?: Connection;
}

/** The service as the embedded launcher builds it: real database, in-process bus, consumers started. */
export async function startTestService(mongo: MongoFixture, options: TestServiceOptions = {}): Promise<TestService> {
  const config = loadConfig(authConfigSchema, {
    SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET,
    NODE_ENV: 'test',
    GOOGLE_CLIENT_ID: TEST_CLIENT_ID,
    // Never the internet: an unreachable local port unless a test serves its own provider.
    GOOGLE_JWKS_URL: 'http://127.0.0.1:9/certs',
    GOOGLE_TOKENINFO_URL: 'http://127.0.0.1:9/tokeninfo',
    GOOGLE_USERINFO_URL: 'http://127.0.0.1:9/userinfo',
    GOOGLE_TIMEOUT_MS: '2000',
    // As the embedded launcher runs it: the dev identity provider on.
    DEV_IDENTITY_PROVIDER: 'true',
    ...options.env,
  });
  const connection = options.connection ?? (await mongo.connect());
  // A bus passed in (e.g. RabbitMQ) belongs to the caller; otherwise an in-process one is made and closed here.
  const broker = createInProcessBroker();
  const ownBus = options.bus === undefined;
  const bus = options.bus ?? createInProcessBus(broker, { logger: silentLogger });
  const clock = new TestClock();
  const { env: _env, connection: _connection, bus: _bus, ...deps } = options;
  const service = await createAuthService({
    config,
    logger: silentLogger,
    mongo: connection,
    bus,
    now: clock.now,
    ...deps,
  });
  await service.start();
  return {
    service: { ...service, app: behindGateway(service.app) },
    connection,
    bus,
    broker,
    clock,
    async close() {
      await service.stop();
      if (ownBus) await bus.close();
      await broker.close();
    },
  };
}

export async function devCredential(
  service: TestService,
  email: string,
  names: { given?: string; family?: string } = {},
): Promise<string> {
  const response = await request(service.service.app)
    .get('/dev-idp/credential')
    .query({
      email,
      ...(names.given ? { given_name: names.given } : {}),
      ...(names.family ? { family_name: names.family } : {}),
    })
    .expect(200);
  return (response.body as { credential: string }).credential;
}

export async function signInDev(
  service: TestService,
  email: string,
  refCode: string | null = null,
): Promise<AuthSession> {
  const credential = await devCredential(service, email, { given: 'Test', family: 'User' });
  const response = await request(service.service.app)
    .post('/auth/google')
    .send({ credential, access_token: null, ref_code: refCode })
    .expect(200);
  return response.body as AuthSession;
}

export function sessionCount(connection: Connection): Promise<number> {
  return connection.collection('sessions').countDocuments();
}

/** Collects the messages of some topics on a queue of its own. */
export async function collectMessages(bus: MessageBus, queue: string, topics: string[]): Promise<BusMessage[]> {
  const received: BusMessage[] = [];
  await bus.subscribe(queue, topics, async (message) => {
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

export interface RecordingServer {
  url: string;
  port: number;
  requests: http.IncomingMessage[];
  close(): Promise<void>;
}

/** A local HTTP server that records every request it receives. */
export async function startRecordingServer(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
  host = '127.0.0.1',
): Promise<RecordingServer> {
  const requests: http.IncomingMessage[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
