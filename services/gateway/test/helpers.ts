import { TEST_SERVICE_AUTH_SECRET } from '@productgen/test-kit';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authInternalRoutes } from '@productgen/contracts';
import { AppError, createLogger, errorHandler, serveRoute } from '@productgen/service-kit';
import express, { type Express } from 'express';
import { createGateway, loadGatewayConfig, type Gateway } from '../src';

/** One request as an owning service received it. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A small real HTTP service on loopback standing in for auth / billing / generation / bulk. It records what
 * arrives; `configure` adds routes, and anything else is echoed back as JSON.
 */
export interface FixtureService {
  name: string;
  url: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

export async function startFixture(
  name: string,
  configure: (app: Express) => void = () => undefined,
): Promise<FixtureService> {
  const received: ReceivedRequest[] = [];
  const app = express();
  app.use(express.raw({ type: () => true, limit: '64mb' }), (req, _res, next) => {
    received.push({
      method: req.method,
      url: req.originalUrl,
      headers: req.headers,
      body: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
    });
    next();
  });
  configure(app);
  app.use((req, res) => {
    res.json({
      owner: name,
      method: req.method,
      url: req.originalUrl,
      userId: req.headers['x-user-id'] ?? null,
    });
  });
  app.use(errorHandler());
  const server = await listen(app);
  return {
    name,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => closeServer(server),
  };
}

export function listen(app: Express): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve(server)));
  });
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** Session keys the fixture auth service knows, and the user each belongs to. */
export const KNOWN_SESSIONS: Record<string, string> = {
  'key-alice': 'user-alice',
  'key-bob': 'user-bob',
  'key-carol': 'user-carol',
};

export interface AuthFixture extends FixtureService {
  /** Calls of GET /internal/sessions/verify so far. */
  verifyCalls(): number;
}

/**
 * Auth stand-in: answers the internal session check (served from the contracts' declaration; the auth contract
 * suite checks it against the real auth) and revokes a key on logout.
 */
export async function startAuthFixture(): Promise<AuthFixture> {
  const sessions = new Map(Object.entries(KNOWN_SESSIONS));
  let verifyCalls = 0;
  const fixture = await startFixture('auth', (app) => {
    serveRoute(app, authInternalRoutes.verifySession, ({ headers }) => {
      verifyCalls += 1;
      const userId = sessions.get(headers['x-session-key'] ?? '');
      if (!userId) throw AppError.unauthorized();
      return { userId };
    });
    // Sign-in starts a session of alice's, unless the credential is `bad`.
    app.post('/auth/google', (req, res) => {
      const { credential } = JSON.parse(String(req.body)) as { credential?: string };
      if (credential === 'bad') return void res.status(401).json({ code: 401, error: 'Failed to verify Google token' });
      res.json({ session_key: 'key-alice', user: { id: 'user-alice' } });
    });
    app.post('/auth/logout', (req, res) => {
      sessions.delete(String(req.headers['x-session-key'] ?? ''));
      res.json({ success: true });
    });
  });
  return Object.assign(fixture, { verifyCalls: () => verifyCalls });
}

export interface Upstreams {
  auth: AuthFixture;
  billing: FixtureService;
  generation: FixtureService;
  bulk: FixtureService;
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startUpstreams(
  configure: Partial<Record<'billing' | 'generation' | 'bulk', (app: Express) => void>> = {},
): Promise<Upstreams> {
  const [auth, billing, generation, bulk] = await Promise.all([
    startAuthFixture(),
    startFixture('billing', configure.billing),
    startFixture('generation', configure.generation),
    startFixture('bulk', configure.bulk),
  ]);
  return {
    auth,
    billing,
    generation,
    bulk,
    env: { AUTH_URL: auth.url, BILLING_URL: billing.url, GENERATION_URL: generation.url, BULK_URL: bulk.url },
    close: async () => {
      await Promise.all([auth.close(), billing.close(), generation.close(), bulk.close()]);
    },
  };
}

export const silentLogger = createLogger({ service: 'gateway-test', level: 'silent' });

/** A gateway built from environment-style settings, exactly as main.ts would read them. */
export function buildGateway(env: Record<string, string>): Gateway {
  // The dev-only routes on, as the embedded launcher runs it; a test can turn them off.
  const config = loadGatewayConfig({
    SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET,
    NODE_ENV: 'test',
    DEV_IDENTITY_PROVIDER: 'true',
    ...env,
  });
  return createGateway({ config, logger: silentLogger });
}

export const GENERATION_UUID = '3f2b8c1e-7d4a-4f6e-9b2a-1c5d8e9f0a7b';
/** A 1×1 PNG, base64. */
export const TINY_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
