import { apiRoutes, toOpenApiPath } from '@productgen/contracts';
import request from 'supertest';
import { buildGateway, gatewaySuite, GENERATION_UUID, TINY_PNG_BASE64 } from './helpers';

jest.setTimeout(30_000);

const AUTH = { 'X-Session-Key': 'key-alice' };

describe('gateway routing (development)', () => {
  const suite = gatewaySuite();

  it.each([
    ['auth', '/auth/me', 'auth'],
    ['billing', '/credits/log?page=2&pageSize=5', 'billing'],
    ['generation', `/image-gen/status/${GENERATION_UUID}`, 'generation'],
    ['bulk', '/image-gen/bulk-jobs?statuses=pending,processing', 'bulk'],
  ] as const)('forwards a %s route with its path and query unchanged', async (_label, url, owner) => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const response = await request(suite.gateway.app)
      .get(url)
      .set(AUTH)
      .set('traceparent', `00-${traceId}-00f067aa0ba902b7-01`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ owner, method: 'GET', url, userId: 'user-alice' });
    const received = suite.upstreams[owner].received.at(-1);
    expect(received?.url).toBe(url);
    expect(received?.headers['x-request-id']).toBe(response.headers['x-request-id']);
    // The caller's trace continues into the owner.
    expect(received?.headers['traceparent']).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
  });

  it("tells the owner the caller's web origin only when CORS allows it, never the client's own claim", async () => {
    const sent = async (headers: Record<string, string>) => {
      const response = await request(suite.gateway.app).get('/credits/log').set(AUTH).set(headers);
      expect(response.status).toBe(200);
      return suite.upstreams.billing.received.at(-1)?.headers['x-web-origin'];
    };
    // Configured, and the web app at the host the API was addressed by (the web port of a configured origin).
    expect(await sent({ Origin: 'http://localhost:3000' })).toBe('http://localhost:3000');
    expect(await sent({ Origin: 'http://studio.lan:3000', Host: 'studio.lan:8080' })).toBe('http://studio.lan:3000');
    // Another site, or a forged header, reaches nobody.
    expect(await sent({ Origin: 'https://evil.example', 'X-Web-Origin': 'https://evil.example' })).toBeUndefined();
    expect(await sent({ 'X-Web-Origin': 'https://evil.example' })).toBeUndefined();
  });

  it('sends Cross-Origin-Opener-Policy only where the browser honours it', async () => {
    const opener = async (host: string) =>
      (await request(suite.gateway.app).get('/docs').set('Host', host)).headers['cross-origin-opener-policy'];
    expect(await opener('localhost:8080')).toBe('same-origin');
    expect(await opener('127.0.0.1:8080')).toBe('same-origin');
    expect(await opener('studio.lan:8080')).toBeUndefined();
  });

  it('forwards a JSON body to its owner byte for byte after validating it', async () => {
    const body = `{"base64str": "${TINY_PNG_BASE64}", "numGenerates": 3}`;
    const response = await request(suite.gateway.app)
      .post('/imageGen')
      .set(AUTH)
      .set('Content-Type', 'application/json')
      .send(body);
    expect(response.status).toBe(200);
    const received = suite.upstreams.generation.received.at(-1);
    expect(received?.body.toString('utf8')).toBe(body);
    expect(received?.headers['content-type']).toBe('application/json');
  });

  it('answers 404 for an unknown path', async () => {
    const response = await request(suite.gateway.app).get('/no/such/thing').set(AUTH);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ code: 404, error: 'Not Found' });
  });

  it('answers 405 with Allow for a known path and another method', async () => {
    const response = await request(suite.gateway.app).delete('/style-presets').set(AUTH);
    expect(response.status).toBe(405);
    expect(response.body).toEqual({ code: 405, error: 'Method Not Allowed' });
    expect(response.headers['allow']).toBe('GET, HEAD, POST');
  });

  it('refuses numGenerates 6 with the contract message and never calls the owner', async () => {
    const before = suite.upstreams.generation.received.length;
    const response = await request(suite.gateway.app)
      .post('/imageGen')
      .set(AUTH)
      .send({ base64str: TINY_PNG_BASE64, numGenerates: 6 });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 400, error: 'numGenerates must be between 1 and 5' });
    expect(suite.upstreams.generation.received).toHaveLength(before);
  });

  it('refuses a bad path parameter and a body that is not JSON', async () => {
    const badParam = await request(suite.gateway.app).get('/image-gen/status/not-a-uuid').set(AUTH);
    expect(badParam.status).toBe(400);
    expect(badParam.body.error).toBe('generation_uuid must be a valid UUID');

    const notJson = await request(suite.gateway.app)
      .post('/user/settings')
      .set(AUTH)
      .set('Content-Type', 'application/json')
      .send('{"site_url": ');
    expect(notJson.status).toBe(400);
    expect(notJson.body).toEqual({ code: 400, error: 'The request body must be valid JSON.' });
  });

  it('serves dev-only routes outside production', async () => {
    const response = await request(suite.gateway.app).get('/dev-idp/credential?email=dev@example.com');
    expect(response.status).toBe(200);
    expect(response.body.owner).toBe('auth');
  });

  it('publishes every contracts route in /openapi.json', async () => {
    const response = await request(suite.gateway.app).get('/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    for (const route of apiRoutes) {
      expect(response.body.paths[toOpenApiPath(route.path)]?.[route.method.toLowerCase()]?.operationId).toBe(route.id);
    }
  });

  it('renders /docs as a self-contained page grouped by owner, styled under the CSP nonce', async () => {
    const response = await request(suite.gateway.app).get('/docs');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    for (const owner of ['auth', 'billing', 'generation', 'bulk', 'gateway']) {
      expect(response.text).toContain(`id="owner-${owner}"`);
    }
    expect(response.text).toContain('/image-gen/status/{generation_uuid}');
    expect(response.text).not.toMatch(/<script|https?:\/\/[^"'\s]*\.(js|css)/);
    const nonce = /<style nonce="([^"]+)">/.exec(response.text)?.[1];
    expect(nonce).toBeDefined();
    expect(response.headers['content-security-policy']).toContain(`'nonce-${nonce}'`);
  });

  it('records a page view on POST /pst and counts it in the stats', async () => {
    const pageView = {
      en: 'page_view',
      do: {
        path: '/pricing',
        full_path: '/pricing?plan=pro',
        referrer: '',
        user_agent: 'jest',
        timestamp: 1_700_000_000_000,
        viewport_width: 1280,
        viewport_height: 800,
      },
    };
    const answer = await request(suite.gateway.app).post('/pst').set(AUTH).send(pageView);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true });

    const stats = await request(suite.gateway.app).get('/internal/pst/stats');
    expect(stats.status).toBe(200);
    expect(stats.body.total).toBe(1);
    expect(stats.body.byPath).toEqual({ '/pricing': 1 });
    expect(stats.body.byEvent).toEqual({ page_view: 1 });
    expect(stats.body.recent[0]).toMatchObject({ name: 'page_view', path: '/pricing', userId: 'user-alice' });

    // The page a buyer returns to from Stripe: its session id is neither kept nor logged (the log line is this record).
    await request(suite.gateway.app)
      .post('/pst')
      .set(AUTH)
      .send({ ...pageView, do: { ...pageView.do, full_path: '/dashboard?payment=success&session_id=cs_live_SECRET' } })
      .expect(200);
    const afterReturn = await request(suite.gateway.app).get('/internal/pst/stats');
    expect(afterReturn.body.recent[1].data.full_path).toBe('/dashboard?payment=success&session_id=redacted');
    expect(JSON.stringify(afterReturn.body)).not.toContain('cs_live_SECRET');

    const invalid = await request(suite.gateway.app).post('/pst').send({ do: {} });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toBe('en is required');
  });

  it('answers /configlist itself from the contracts', async () => {
    const response = await request(suite.gateway.app).get('/configlist');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ product_name: 'ProductGen', dev_mode: true, stripe_publishable_key: null });
    // SPEC §5: 1 to 5 images and at most 5 presets per creation, 200 photos per batch.
    expect(response.body.limits).toEqual({
      maxImagesPerGeneration: 5,
      maxPresetsPerGeneration: 5,
      maxBatchImages: 200,
    });
    expect(response.body.packages.length).toBeGreaterThan(0);
  });

  it('answers /configlist brotli, gzip or plain as the client accepts, one JSON and one ETag', async () => {
    const raw = (encoding: string) =>
      request(suite.gateway.app)
        .get('/configlist')
        .set('Accept-Encoding', encoding)
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        });
    const plain = await raw('identity');
    const brotli = await raw('gzip, deflate, br');
    const gzip = await raw('gzip');
    expect([
      plain.headers['content-encoding'],
      brotli.headers['content-encoding'],
      gzip.headers['content-encoding'],
    ]).toEqual([undefined, 'br', 'gzip']);
    const json = JSON.parse((plain.body as Buffer).toString('utf8')) as unknown;
    expect(json).toMatchObject({ product_name: 'ProductGen' });
    // supertest decodes what the Content-Encoding names, so undecodable bytes would fail here.
    expect(JSON.parse((brotli.body as Buffer).toString('utf8'))).toEqual(json);
    expect(JSON.parse((gzip.body as Buffer).toString('utf8'))).toEqual(json);
    expect(Number(brotli.headers['content-length'])).toBeLessThan((plain.body as Buffer).length);
    for (const answer of [plain, brotli, gzip]) {
      expect(answer.headers['vary']).toContain('Accept-Encoding');
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(answer.headers['etag']).toBe(plain.headers['etag']);
    }
    const unchanged = await request(suite.gateway.app).get('/configlist').set('If-None-Match', plain.headers['etag']!);
    expect(unchanged.status).toBe(304);
  });
});

describe.each([
  ['production', { NODE_ENV: 'production', DEV_IDENTITY_PROVIDER: 'false' }],
  ['staging without DEV_IDENTITY_PROVIDER', { NODE_ENV: 'staging', DEV_IDENTITY_PROVIDER: '' }],
])('gateway routing (%s)', (_name, env) => {
  const suite = gatewaySuite(env);

  it('answers 404 for dev-only routes and never reaches their owners', async () => {
    const credential = await request(suite.gateway.app).get('/dev-idp/credential?email=dev@example.com');
    expect(credential.status).toBe(404);
    expect(credential.body).toEqual({ code: 404, error: 'Not Found' });
    const pay = await request(suite.gateway.app).post('/dev-checkout/cs_test_1/pay');
    expect(pay.status).toBe(404);
    expect(suite.upstreams.auth.received).toHaveLength(0);
    expect(suite.upstreams.billing.received).toHaveLength(0);
  });

  it('leaves dev-only routes out of /openapi.json and says dev_mode false', async () => {
    const response = await request(suite.gateway.app).get('/openapi.json');
    expect(response.body.paths['/dev-idp/credential']).toBeUndefined();
    expect(response.body.paths['/dev-checkout/{sessionId}']).toBeUndefined();
    expect(response.body.paths['/auth/me']).toBeDefined();
    expect((await request(suite.gateway.app).get('/configlist').expect(200)).body).toMatchObject({ dev_mode: false });
  });
});

it.each(['production', 'staging'])('refuses DEV_IDENTITY_PROVIDER with NODE_ENV=%s, naming the variable', (mode) => {
  expect(() => buildGateway({ NODE_ENV: mode, DEV_IDENTITY_PROVIDER: 'true' })).toThrow(
    `DEV_IDENTITY_PROVIDER: must not be enabled with NODE_ENV=${mode}, only with NODE_ENV=development or test`,
  );
});

describe('compression', () => {
  const categories = Array.from({ length: 200 }, (_, i) => ({ id: `category-${i}`, label: `Category ${i}` }));
  const suite = gatewaySuite(
    {},
    {
      generation: (app) => {
        app.get('/image-gen/categories', (_req, res) => {
          res.json({ categories });
        });
      },
    },
  );

  it('compresses a large forwarded answer and the docs page for a client that accepts it', async () => {
    const forwarded = await request(suite.gateway.app).get('/image-gen/categories').set('Accept-Encoding', 'gzip');
    expect(forwarded.status).toBe(200);
    expect(forwarded.headers['content-encoding']).toBe('gzip');
    expect(forwarded.headers['vary']).toContain('Accept-Encoding');
    expect(forwarded.body).toEqual({ categories });
    const docs = await request(suite.gateway.app).get('/docs').set('Accept-Encoding', 'br');
    expect(docs.headers['content-encoding']).toBe('br');
    expect(docs.text).toContain('<style nonce=');
  });
});
