import { allInternalRoutes, routes, type ApiRoute, type InternalRoute } from '@productgen/contracts';
import { FORGED_USER_MESSAGE, MISSING_SERVICE_TOKEN_MESSAGE } from '@productgen/service-kit';
import { startInProcessPlatform, type InProcessPlatform } from './batch/platform';

// Every state change of the API, tried three ways a caller without the right credentials would: without a session
// through the gateway, from another site's page with the signed-in user's cookie, and straight at the owning service
// with a forged X-User-Id (a pod inside the cluster skipping the gateway). And every internal route without a
// service token. The platform is composed in this process as `npm start` composes it.
jest.setTimeout(120_000);

const WEB_ORIGIN_OF_ANOTHER_SITE = 'https://attacker.example';
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
const OWNER_URL_VARIABLE = { auth: 'AUTH_URL', billing: 'BILLING_URL', generation: 'GENERATION_URL', bulk: 'BULK_URL' };

/** The route's path with each `:param` filled in (any value: every refusal comes before the parameters are read). */
function addressOf(route: { path: string }): string {
  return route.path.replace(/:([A-Za-z_]+)/g, (_match, name: string) =>
    name.includes('uuid') || name === 'id' ? '3f2b8c1e-7d4a-4f6e-9b2a-1c5d8e9f0a7b' : '0',
  );
}

const stateChanges = Object.values(routes as Record<string, ApiRoute>).filter(
  (route) => route.auth === 'session' && !SAFE.has(route.method),
);
const describeRoute = (route: ApiRoute | InternalRoute) => `${route.method} ${route.path}`;

let platform: InProcessPlatform;
let sessionKey: string;
let userId: string;

beforeAll(async () => {
  platform = await startInProcessPlatform();
  ({ sessionKey, userId } = await platform.signIn('service.identity@example.com'));
});

afterAll(() => platform?.stop());

test('the table covers the API', () => {
  expect(stateChanges.length).toBeGreaterThan(10);
  expect(allInternalRoutes.length).toBeGreaterThan(5);
});

describe.each(stateChanges.map((route) => [describeRoute(route), route] as const))('%s', (_name, route) => {
  test('without a session, through the gateway: 401', async () => {
    const answer = await fetch(`${platform.apiUrl}${addressOf(route)}`, {
      method: route.method,
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(answer.status).toBe(401);
  });

  test("from another site's page with the user's session cookie: 403", async () => {
    const answer = await fetch(`${platform.apiUrl}${addressOf(route)}`, {
      method: route.method,
      headers: {
        'content-type': 'text/plain',
        cookie: `session_key=${sessionKey}`,
        origin: WEB_ORIGIN_OF_ANOTHER_SITE,
        'sec-fetch-site': 'cross-site',
      },
      body: '{}',
    });
    expect(answer.status).toBe(403);
  });

  test('straight at the owning service with a forged X-User-Id: 401 in words', async () => {
    const serviceUrl = platform.serviceUrls[OWNER_URL_VARIABLE[route.owner as keyof typeof OWNER_URL_VARIABLE]];
    expect(serviceUrl).toBeDefined();
    const answer = await fetch(`${serviceUrl}${addressOf(route)}`, {
      method: route.method,
      headers: { 'content-type': 'application/json', 'x-user-id': userId },
      body: '{}',
    });
    expect(answer.status).toBe(401);
    expect(await answer.json()).toEqual({ code: 401, error: FORGED_USER_MESSAGE });
  });
});

describe.each(allInternalRoutes.map((route) => [describeRoute(route), route] as const))(
  'internal %s',
  (_name, route) => {
    test('without a service token: 401 in words', async () => {
      const serviceUrl = platform.serviceUrls[OWNER_URL_VARIABLE[route.owner as keyof typeof OWNER_URL_VARIABLE]];
      expect(serviceUrl).toBeDefined();
      const answer = await fetch(`${serviceUrl}${addressOf(route)}`, {
        method: route.method,
        headers: SAFE.has(route.method) ? {} : { 'content-type': 'application/json' },
        body: SAFE.has(route.method) ? undefined : '{}',
      });
      expect(answer.status).toBe(401);
      expect(await answer.json()).toEqual({ code: 401, error: MISSING_SERVICE_TOKEN_MESSAGE });
    });
  },
);
