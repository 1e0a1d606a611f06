import { TEST_SERVICE_AUTH_SECRET } from '@productgen/test-kit';
import { startAuthFixture, type AuthFixture } from '@productgen/test-kit/auth-fixture';
import { startFixture, type FixtureService } from '@productgen/test-kit/fixture-service';
import { createLogger, type Logger } from '@productgen/service-kit';
import type { Express } from 'express';
import { createGateway, loadGatewayConfig, type Gateway } from '../src';

/** The four services behind the gateway, as test-kit's recording stand-ins (auth's answers the session check). */

export interface Upstreams {
  auth: AuthFixture;
  billing: FixtureService;
  generation: FixtureService;
  bulk: FixtureService;
  env: Record<string, string>;
  close(): Promise<void>;
}

/** Extra routes for a stand-in upstream, by service. */
export type UpstreamRoutes = Partial<Record<'billing' | 'generation' | 'bulk', (app: Express) => void>>;

export async function startUpstreams(configure: UpstreamRoutes = {}): Promise<Upstreams> {
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
export function buildGateway(env: Record<string, string>, logger: Logger = silentLogger): Gateway {
  // The dev-only routes on, as the embedded launcher runs it; a test can turn them off.
  const config = loadGatewayConfig({
    SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET,
    NODE_ENV: 'test',
    DEV_IDENTITY_PROVIDER: 'true',
    ...env,
  });
  return createGateway({ config, logger });
}

/** A describe block's gateway and the stand-ins behind it; set before its first test runs. */
export interface GatewaySuite {
  gateway: Gateway;
  upstreams: Upstreams;
}

/**
 * Starts the stand-in upstreams and a gateway in front of them (their addresses, then `settings`, as its environment)
 * before a describe block's tests, and stops both after them.
 */
export function gatewaySuite(settings: Record<string, string> = {}, routes: UpstreamRoutes = {}): GatewaySuite {
  const suite = {} as GatewaySuite;
  beforeAll(async () => {
    suite.upstreams = await startUpstreams(routes);
    suite.gateway = buildGateway({ ...suite.upstreams.env, ...settings });
  });
  afterAll(async () => {
    await suite.gateway?.stop();
    await suite.upstreams?.close();
  });
  return suite;
}

export const GENERATION_UUID = '3f2b8c1e-7d4a-4f6e-9b2a-1c5d8e9f0a7b';
/** A 1×1 PNG, base64. */
export const TINY_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
