import type { RequestListener } from 'node:http';
import request from 'supertest';
import { authConfigSchema, createAuthService, type AuthService, type AuthServiceDeps } from '@productgen/auth-service';
import type { AuthSession } from '@productgen/contracts';
import { createLogger, loadConfig } from '@productgen/service-kit';
import type { MongoFixture } from './mongo-fixture';
import { behindGateway, TEST_SERVICE_AUTH_SECRET } from './service-auth';
import { serviceSetup, type RunningTestService, type ServiceOptions } from './service-setup';

/** The real auth service for tests: its own tests, its contract suite and the integration tests. */

export const TEST_CLIENT_ID = 'test-client-id.apps.example';
const silentLogger = createLogger({ service: 'auth-test', level: 'silent' });

export interface TestService extends RunningTestService {
  /** The service, its app as the gateway's forwards reach it (behindGateway). */
  service: Omit<AuthService, 'app'> & { app: RequestListener };
}

export interface TestServiceOptions
  extends ServiceOptions, Partial<Omit<AuthServiceDeps, 'config' | 'logger' | 'mongo'>> {}

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
  const setup = await serviceSetup(mongo, options, silentLogger);
  const { env: _env, connection: _connection, bus: _bus, ...deps } = options;
  const service = await createAuthService({
    config,
    logger: silentLogger,
    mongo: setup.connection,
    bus: setup.bus,
    now: setup.clock.now,
    ...deps,
  });
  await service.start();
  return {
    service: { ...service, app: behindGateway(service.app) },
    connection: setup.connection,
    bus: setup.bus,
    broker: setup.broker,
    clock: setup.clock,
    async close() {
      await service.stop();
      await setup.closeBus();
    },
  };
}

/** A credential of the dev identity provider for `email` (GET /dev-idp/credential). */
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

/** Signs `email` in through the dev identity provider, as the sign-in screen does. */
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
