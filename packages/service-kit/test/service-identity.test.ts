import { SignJWT } from 'jose';
import {
  createHttpApp,
  createInternalHttpClient,
  createServiceIdentity,
  FORGED_USER_MESSAGE,
  INVALID_SERVICE_TOKEN_MESSAGE,
  loadConfig,
  MISSING_SERVICE_TOKEN_MESSAGE,
  requireGatewayUser,
  serviceAuthConfig,
  type InternalHttpClient,
} from '@productgen/service-kit';
import { z } from 'zod';
import { listen, memoryLogger, type TestServer } from './helpers';

const SECRET = 'a-test-secret-of-at-least-32-characters!';
const USER = 'u_0123456789abcdef01234567';
const OTHER_USER = 'u_fedcba9876543210fedcba98';

/** Posts to the callee with the given headers, as something outside the platform's processes would. */
async function post(url: string, headers: Record<string, string>) {
  const response = await fetch(`${url}/internal/who`, { method: 'POST', headers });
  return { status: response.status, body: (await response.json()) as unknown };
}

describe('service identity: the user and the caller from a signed token only', () => {
  let callee: TestServer;
  let asBulk: InternalHttpClient;
  const gateway = createServiceIdentity(SECRET, 'gateway');

  beforeAll(async () => {
    const { logger } = memoryLogger('identity-test');
    const app = createHttpApp({ name: 'callee', logger, serviceIdentity: createServiceIdentity(SECRET, 'billing') });
    app.post('/internal/who', (req, res) => {
      res.json({ userId: req.headers['x-user-id'] === undefined ? null : requireGatewayUser(req) });
    });
    app.finalize();
    callee = await listen(app);
    asBulk = createInternalHttpClient({ baseUrl: callee.url, identity: createServiceIdentity(SECRET, 'bulk') });
  });

  afterAll(() => callee?.close());

  it('refuses a forged X-User-Id from outside the gateway with 401 in words', async () => {
    expect(await post(callee.url, { 'X-User-Id': USER })).toEqual({
      status: 401,
      body: { code: 401, error: FORGED_USER_MESSAGE },
    });
  });

  it('refuses a call without a token, and one with a forged, foreign or expired token', async () => {
    expect(await post(callee.url, {})).toEqual({
      status: 401,
      body: { code: 401, error: MISSING_SERVICE_TOKEN_MESSAGE },
    });
    const invalid = { status: 401, body: { code: 401, error: INVALID_SERVICE_TOKEN_MESSAGE } };
    const otherSecret = await createServiceIdentity('another-secret-of-at-least-32-characters', 'gateway').sign(USER);
    expect(await post(callee.url, { 'X-Service-Token': otherSecret })).toEqual(invalid);
    expect(await post(callee.url, { 'X-Service-Token': 'not.a.token' })).toEqual(invalid);
    const key = new TextEncoder().encode(SECRET);
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('gateway')
      .setAudience('productgen-services')
      .setSubject(USER)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 300)
      .sign(key);
    expect(await post(callee.url, { 'X-Service-Token': expired })).toEqual(invalid);
    const otherAudience = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('gateway')
      .setAudience('something-else')
      .setSubject(USER)
      .setExpirationTime('1m')
      .sign(key);
    expect(await post(callee.url, { 'X-Service-Token': otherAudience })).toEqual(invalid);
  });

  it("reads the user from the gateway's token, whatever X-User-Id says", async () => {
    const token = await gateway.sign(USER);
    expect(await post(callee.url, { 'X-Service-Token': token, 'X-User-Id': OTHER_USER })).toEqual({
      status: 200,
      body: { userId: USER },
    });
    // A token without a user: anonymous, a sent X-User-Id is dropped.
    expect(await post(callee.url, { 'X-Service-Token': await gateway.sign(), 'X-User-Id': OTHER_USER })).toEqual({
      status: 200,
      body: { userId: null },
    });
  });

  it("signs another service's internal calls, with the user it acts for", async () => {
    await expect(asBulk.post('/internal/who', { headers: { 'x-user-id': USER } })).resolves.toEqual({ userId: USER });
    await expect(asBulk.post('/internal/who')).resolves.toEqual({ userId: null });
  });

  it('leaves the probes open', async () => {
    expect((await fetch(`${callee.url}/healthz`)).status).toBe(200);
  });

  it('requires the shared secret in the configuration, long enough', () => {
    const schema = z.object(serviceAuthConfig);
    expect(() => loadConfig(schema, {})).toThrow('SERVICE_AUTH_SECRET');
    expect(() => loadConfig(schema, { SERVICE_AUTH_SECRET: 'short' })).toThrow('at least 32 characters');
    expect(loadConfig(schema, { SERVICE_AUTH_SECRET: SECRET }).SERVICE_AUTH_SECRET).toBe(SECRET);
  });
});
