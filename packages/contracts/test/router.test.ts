import { randomUUID } from 'node:crypto';
import {
  apiRoutes,
  createRouter,
  matchRoute,
  productCategories,
  routes,
  UNKNOWN_CATEGORY_MESSAGE,
  validateRequest,
} from '@productgen/contracts';

describe('matchRoute', () => {
  test('resolves path params', () => {
    const uuid = randomUUID();
    const match = matchRoute('GET', `/image-gen/status/${uuid}`);
    expect(match.kind).toBe('found');
    if (match.kind !== 'found') return;
    expect(match.route.id).toBe('generationStatus');
    expect(match.params).toEqual({ generation_uuid: uuid });
  });

  test('resolves several params and decodes them', () => {
    const match = matchRoute('GET', '/download/abc%2Fdef/image/-1');
    expect(match).toMatchObject({ kind: 'found', params: { id: 'abc/def', index: '-1' } });
  });

  test('ignores the query string and a trailing slash', () => {
    expect(matchRoute('GET', '/image-gen/bulk-jobs/?statuses=pending')).toMatchObject({
      kind: 'found',
      route: { id: 'listBulkJobs' },
    });
  });

  test('the same path picks the route of the method', () => {
    expect(matchRoute('GET', '/style-presets')).toMatchObject({ kind: 'found', route: { id: 'listStylePresets' } });
    expect(matchRoute('post', '/style-presets')).toMatchObject({ kind: 'found', route: { id: 'createStylePreset' } });
    expect(matchRoute('HEAD', '/auth/me')).toMatchObject({ kind: 'found', route: { id: 'authMe' } });
  });

  test('a literal segment wins over a param at the same depth', () => {
    expect(matchRoute('GET', '/download/bulk/123')).toMatchObject({
      route: { id: 'downloadBulkJob' },
      params: { id: '123' },
    });
    expect(matchRoute('GET', '/download/123/batch')).toMatchObject({
      route: { id: 'downloadGeneration' },
      params: { id: '123' },
    });
  });

  test('a known path with another method is 405 with the allowed methods', () => {
    expect(matchRoute('DELETE', '/style-presets')).toEqual({
      kind: 'method_not_allowed',
      allowedMethods: ['GET', 'POST'],
    });
    expect(matchRoute('GET', '/imageGen')).toEqual({ kind: 'method_not_allowed', allowedMethods: ['POST'] });
  });

  test('an unknown path is 404', () => {
    expect(matchRoute('GET', '/nope')).toEqual({ kind: 'not_found' });
    expect(matchRoute('GET', '/image-gen/status')).toEqual({ kind: 'not_found' });
    expect(matchRoute('GET', '/image-gen/status/a/b')).toEqual({ kind: 'not_found' });
    expect(matchRoute('GET', '/download/%E0%A4%A/batch')).toEqual({ kind: 'not_found' });
  });

  test('every route in the table is found by its own path', () => {
    for (const route of apiRoutes) {
      const path = route.path.replace(/:([A-Za-z0-9_]+)/g, 'x1');
      expect(matchRoute(route.method, path)).toMatchObject({ kind: 'found', route: { id: route.id } });
    }
  });

  test('createRouter works over a reduced table (production without dev routes)', () => {
    const router = createRouter(apiRoutes.filter((route) => !route.devOnly));
    expect(router.match('GET', '/dev-idp/credential')).toEqual({ kind: 'not_found' });
    expect(router.match('GET', '/auth/me')).toMatchObject({ kind: 'found' });
  });
});

describe('validateRequest', () => {
  test('returns parsed data with defaults and coercions applied', () => {
    const result = validateRequest(routes.creditLog, { query: { pageSize: '20' } });
    expect(result).toEqual({ ok: true, data: expect.objectContaining({ query: { page: 1, pageSize: 20 } }) });
  });

  test('parses path params from text', () => {
    const id = randomUUID();
    const result = validateRequest(routes.downloadImage, { params: { id, index: '-1' } });
    expect(result.ok && result.data.params).toEqual({ id, index: -1 });
  });

  test('collects every issue in words, with a 400 error shape', () => {
    const result = validateRequest(routes.imageGenFromId, {
      body: { id: randomUUID(), numGenerates: 6, presets: ['a', 'b', 'c', 'd', 'e', 'f'] },
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((issue) => issue.message)).toEqual([
      'numGenerates must be between 1 and 5',
      'presets can hold at most 5 style presets',
    ]);
    expect(result.error).toEqual({ code: 400, error: result.message });
    expect(result.message).toContain('numGenerates must be between 1 and 5');
  });

  test('a missing body and bad params are reported per location', () => {
    const body = validateRequest(routes.requestRefund, {});
    expect(body.ok === false && body.issues).toEqual([
      { location: 'body', path: '', message: 'The request body is required' },
    ]);
    const params = validateRequest(routes.generationStatus, { params: { generation_uuid: '42' } });
    expect(params.ok === false && params.message).toBe('generation_uuid must be a valid UUID');
  });

  test('built-in checks read as sentences too', () => {
    const result = validateRequest(routes.closeTooltip, { body: { name: 7 } });
    expect(result.ok === false && result.message).toBe('name must be text');
    const wrongType = validateRequest(routes.saveUserMetadata, { body: [] });
    expect(wrongType.ok === false && wrongType.message).toBe('The request body must be an object');
  });

  test("a category outside the contracts' list is answered with the create screen's sentence", () => {
    const params = { generation_uuid: randomUUID() };
    const unknown = validateRequest(routes.correctAnalysis, { params, body: { category: 'spaceships' } });
    expect(unknown.ok === false && unknown.error).toEqual({ code: 400, error: UNKNOWN_CATEGORY_MESSAGE });
    for (const { id } of productCategories) {
      expect(validateRequest(routes.correctAnalysis, { params, body: { category: id } }).ok).toBe(true);
    }
    const filter = validateRequest(routes.listStylePresets, { query: { category: 'Fashion' } });
    expect(filter.ok === false && filter.message).toBe(UNKNOWN_CATEGORY_MESSAGE);
  });

  test('a route without a request schema passes its input through', () => {
    expect(validateRequest(routes.authMe, { query: { x: '1' } })).toEqual({
      ok: true,
      data: { body: undefined, query: { x: '1' }, params: undefined, headers: undefined },
    });
  });

  test('a raw-body route checks headers but leaves the body to its owner', () => {
    const missing = validateRequest(routes.paymentWebhook, { body: Buffer.from('{}'), headers: {} });
    expect(missing.ok === false && missing.message).toBe('stripe-signature is required');
    const signed = validateRequest(routes.paymentWebhook, {
      body: Buffer.from('not json'),
      headers: { 'stripe-signature': 't=1,v1=abc' },
    });
    expect(signed.ok).toBe(true);
  });
});
