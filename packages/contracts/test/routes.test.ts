import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  apiRoutes,
  fillPath,
  pathParamNames,
  routePaths,
  routes,
  toOpenApiPath,
  type RouteBody,
  type RouteParams,
  type RouteQuery,
  type RouteResponse,
} from '@productgen/contracts';

/** Every row of SPEC §7's table, written out from the SPEC (path params in its {id} notation). */
const specSection7Calls = [
  'POST /auth/google',
  'GET /auth/me',
  'POST /imageGen',
  'POST /imageGenFromId',
  'POST /payments/create-checkout-session',
  'GET /records',
  'GET /image-gen/generated/{id}',
  'POST /support/refund',
  'GET /configlist',
  'GET /payment-records',
  'POST /hear-about-source',
  'GET /hear-about-source/has-seen',
  'POST /image-gen/category',
  'POST /style-presets',
  'GET /style-presets',
  'GET /style-presets/{id}',
  'POST /user/settings/metadata',
  'POST /user/settings/close-tooltip',
  'POST /image-gen/bulk-zip',
  'GET /image-gen/bulk-job/{id}',
  'GET /image-gen/bulk-jobs',
  'POST /pst',
];

/** SPEC §7's built download addresses. */
const downloadAddresses = ['GET /download/{id}/image/{index}', 'GET /download/{id}/batch', 'GET /download/bulk/{id}'];

/** DESIGN §8: the calls SPEC §7 knows only by purpose, and the embedded-mode ones. */
const designSection8Calls = [
  'GET /image-gen/categories',
  'GET /style-presets',
  'POST /image-gen/category',
  'GET /image-gen/status/{generation_uuid}',
  'GET /image-gen/generations',
  'GET /records',
  'GET /credits/log',
  'POST /payments/check-success',
  'POST /user/settings',
  'POST /auth/logout',
  'POST /style-presets',
  'GET /dev-idp/credential',
  'GET /dev-checkout/{sessionId}',
  'POST /dev-checkout/{sessionId}/pay',
];

const tableEntries = apiRoutes.map((route) => `${route.method} ${toOpenApiPath(route.path)}`);

describe('apiRoutes', () => {
  test.each([...specSection7Calls, ...downloadAddresses, ...designSection8Calls, 'POST /payments/webhook'])(
    '%s is in the route table',
    (call) => {
      expect(tableEntries).toContain(call);
    },
  );

  test('method + path and ids are unique', () => {
    expect(new Set(tableEntries).size).toBe(apiRoutes.length);
    expect(new Set(apiRoutes.map((route) => route.id)).size).toBe(apiRoutes.length);
  });

  test('every route id is its key in `routes`', () => {
    for (const [key, route] of Object.entries(routes)) expect(route.id).toBe(key);
  });

  test("the browser's route paths are the table's, and their module imports nothing (no zod in a bundle)", () => {
    expect(Object.keys(routePaths)).toEqual(Object.keys(routes));
    for (const route of apiRoutes) {
      expect(routePaths[route.id as keyof typeof routePaths]).toEqual({ method: route.method, path: route.path });
    }
    const source = readFileSync(path.join(__dirname, '../src/paths.ts'), 'utf8');
    expect(source).not.toMatch(/^\s*(import|export .* from)\b/m);
  });

  test('fillPath encodes each parameter and refuses a missing one', () => {
    expect(fillPath(routePaths.downloadImage.path, { id: 'a/b', index: -1 })).toBe('/download/a%2Fb/image/-1');
    expect(() => fillPath<string>(routePaths.downloadImage.path, { id: 'a' })).toThrow(
      'Path /download/:id/image/:index needs the parameter index',
    );
  });

  test('health probes are not API routes', () => {
    expect(apiRoutes.some((route) => /healthz|readyz/.test(route.path))).toBe(false);
  });

  test.each(apiRoutes.map((route) => [route.id, route] as const))(
    '%s declares a params schema for exactly its :params',
    (_id, route) => {
      const declared = Object.keys(route.request?.params?.shape ?? {}).sort();
      expect(declared).toEqual(pathParamNames(route.path).sort());
    },
  );

  test('owners and auth follow DESIGN §1 and SPEC §7', () => {
    expect(routes.authGoogle).toMatchObject({ owner: 'auth', auth: 'none' });
    expect(routes.paymentWebhook).toMatchObject({ owner: 'billing', auth: 'none' });
    expect(routes.paymentWebhook.request.bodyType).toBe('raw');
    expect(routes.createBulkJob).toMatchObject({ owner: 'bulk', auth: 'session' });
    expect(routes.createBulkJob.request.bodyType).toBe('multipart');
    expect(routes.trackEvent.owner).toBe('gateway');
    expect(routes.generationStatus.owner).toBe('generation');
    expect(routes.requestRefund.owner).toBe('billing');
  });

  test('only the embedded-mode routes are dev-only', () => {
    const devOnly = apiRoutes.filter((route) => route.devOnly).map((route) => route.path);
    expect(devOnly.sort()).toEqual(['/dev-checkout/:sessionId', '/dev-checkout/:sessionId/pay', '/dev-idp/credential']);
  });

  test('download routes answer bytes and accept the session cookie', () => {
    for (const route of [routes.downloadImage, routes.downloadGeneration, routes.downloadBulkJob]) {
      expect(route.responseType).toBe('binary');
      expect(route.acceptsSessionCookie).toBe(true);
    }
  });
});

describe('route types', () => {
  test('request and answer types are inferred from the schemas', () => {
    // Compile-time checks (tsc): a wrong field name or type here fails the type-check.
    const body: RouteBody<typeof routes.imageGenFromId> = { id: 'x', numGenerates: 2, presets: ['a', 'b'] };
    const query: RouteQuery<typeof routes.creditLog> = { page: 1, pageSize: 10 };
    const params: RouteParams<typeof routes.downloadImage> = { id: 'x', index: -1 };
    const answer: RouteResponse<typeof routes.createBulkJob> = { bulk_job_uuid: 'x' };
    expect([body.numGenerates, query.pageSize, params.index, answer.bulk_job_uuid]).toEqual([2, 10, -1, 'x']);
  });
});
