import { createHmac, randomBytes } from 'node:crypto';
import { TEST_SERVICE_AUTH_SECRET } from '@productgen/test-kit';
import express from 'express';
import helmet from 'helmet';
import request from 'supertest';
import { loadGatewayConfig } from '../src';
import { helmetOptions } from '../src/security';
import { gatewaySuite } from './helpers';

jest.setTimeout(30_000);

const WEB_ORIGIN = 'https://app.productgen.test';
const REMOTE_ORIGIN = 'https://cdn.productgen.test';

const SETTINGS = {
  WEB_ORIGINS: `${WEB_ORIGIN}, http://localhost:3000`,
  REMOTE_ORIGINS: REMOTE_ORIGIN,
  JSON_BODY_LIMIT_BYTES: '2048',
  IMAGE_BODY_LIMIT_BYTES: '8192',
  UPLOAD_BODY_LIMIT_BYTES: '65536',
};

describe('CORS, CSP, body limits and pass-through bodies', () => {
  const suite = gatewaySuite(SETTINGS, {
    billing: (app) => {
      app.post('/payments/webhook', (_req, res) => {
        res.json({ received: true });
      });
    },
  });

  it('echoes an allowed origin with credentials', async () => {
    const response = await request(suite.gateway.app).get('/image-gen/categories').set('Origin', WEB_ORIGIN);
    expect(response.status).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe(WEB_ORIGIN);
    expect(response.headers['access-control-allow-credentials']).toBe('true');
  });

  it('answers a preflight that allows X-Session-Key', async () => {
    const response = await request(suite.gateway.app)
      .options('/imageGen')
      .set('Origin', WEB_ORIGIN)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type,x-session-key');
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe(WEB_ORIGIN);
    expect(response.headers['access-control-allow-headers']?.toLowerCase()).toContain('x-session-key');
  });

  it('gives an unknown origin no Access-Control-Allow-Origin', async () => {
    const response = await request(suite.gateway.app)
      .get('/image-gen/categories')
      .set('Origin', 'https://evil.example');
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await request(suite.gateway.app)
      .options('/imageGen')
      .set('Origin', 'https://evil.example')
      .set('Access-Control-Request-Method', 'POST');
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('allows the web app at the host the API was addressed by, on the web port, and no other host', async () => {
    const at = (host: string, origin: string) =>
      request(suite.gateway.app).get('/image-gen/categories').set('Host', host).set('Origin', origin);
    for (const host of ['127.0.0.1', 'studio.lan']) {
      const response = await at(`${host}:8080`, `http://${host}:3000`);
      expect(response.headers['access-control-allow-origin']).toBe(`http://${host}:3000`);
    }
    // Another host than the one addressed, another port, another scheme: not the web app.
    for (const origin of ['http://evil.example:3000', 'http://studio.lan:4000', 'https://studio.lan:3000']) {
      expect((await at('studio.lan:8080', origin)).headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('sends a Content-Security-Policy naming the web and remote origins', async () => {
    const response = await request(suite.gateway.app).get('/docs');
    const csp = response.headers['content-security-policy'] ?? '';
    expect(csp).toMatch(new RegExp(`script-src 'self' ${REMOTE_ORIGIN}`));
    expect(csp).toMatch(new RegExp(`connect-src 'self' ${WEB_ORIGIN} http://localhost:3000 ${REMOTE_ORIGIN}`));
    expect(csp).toContain("object-src 'none'");
  });

  it("sets exactly helmet's headers, with the answer's own nonce in the policy", async () => {
    const answer = await request(suite.gateway.app).get('/configlist');
    const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(answer.headers['content-security-policy'] ?? '')?.[1];
    expect(nonce).toHaveLength(24);
    // helmet itself, with the gateway's options, in front of an empty answer.
    const config = loadGatewayConfig({
      SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET,
      NODE_ENV: 'test',
      ...suite.upstreams.env,
      ...SETTINGS,
    });
    const reference = express();
    reference.disable('x-powered-by');
    reference.use(helmet(helmetOptions(config, () => nonce!)));
    reference.get('/', (_req, res) => void res.end());
    const expected = (await request(reference).get('/')).headers;
    const helmetNames = Object.keys(expected).filter(
      (name) => !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name),
    );
    expect(helmetNames).toContain('content-security-policy');
    expect(helmetNames).toContain('cross-origin-opener-policy');
    expect(helmetNames.length).toBeGreaterThan(10);
    for (const name of helmetNames) expect([name, answer.headers[name]]).toEqual([name, expected[name]]);
  });

  it('gives every answer a nonce of its own', async () => {
    const nonces = new Set<string>();
    // More answers than one draw of random bytes serves.
    for (let i = 0; i < 300; i += 1) {
      const csp = (await request(suite.gateway.app).get('/healthz')).headers['content-security-policy'] ?? '';
      nonces.add(/'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1] ?? '');
    }
    expect(nonces.has('')).toBe(false);
    expect(nonces.size).toBe(300);
  });

  it('answers 413 with a clear message above the JSON limit', async () => {
    const response = await request(suite.gateway.app)
      .post('/pst')
      .send({ en: 'page_view', do: { filler: 'x'.repeat(4096) } });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({
      code: 413,
      error: 'The request body is too large: at most 2 KiB is accepted here.',
    });
  });

  it('allows the larger image limit only on routes carrying a photo', async () => {
    const image = randomBytes(3000).toString('base64'); // 4000 characters: over the JSON limit, under the image one
    const analyse = await request(suite.gateway.app)
      .post('/image-gen/category')
      .set('X-Session-Key', 'key-alice')
      .send({ image });
    expect(analyse.status).toBe(200);
    expect(analyse.body.owner).toBe('generation');
    const settings = await request(suite.gateway.app)
      .post('/user/settings/metadata')
      .set('X-Session-Key', 'key-alice')
      .send({ note: 'x'.repeat(4000) });
    expect(settings.status).toBe(413);
  });

  it('refuses a declared oversized upload before streaming it', async () => {
    const response = await request(suite.gateway.app)
      .post('/image-gen/bulk-zip')
      .set('X-Session-Key', 'key-alice')
      .attach('zipFile', randomBytes(70 * 1024), 'photos.zip')
      .field('numGenerates', '2');
    expect(response.status).toBe(413);
    expect(response.body.error).toBe('The request body is too large: at most 64 KiB is accepted here.');
    expect(suite.upstreams.bulk.received).toHaveLength(0);
  });

  it('streams a multipart upload to bulk unparsed', async () => {
    const zip = randomBytes(20 * 1024);
    const response = await request(suite.gateway.app)
      .post('/image-gen/bulk-zip')
      .set('X-Session-Key', 'key-alice')
      .attach('zipFile', zip, 'photos.zip')
      .field('numGenerates', '2');
    expect(response.status).toBe(200);
    const received = suite.upstreams.bulk.received.at(-1);
    expect(received?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(received?.headers['x-user-id']).toBe('user-alice');
    expect(received?.body.includes(zip)).toBe(true);
  });

  it('delivers the Stripe webhook to billing byte for byte', async () => {
    // Odd spacing, key order and a non-ASCII character: any re-serialisation would change these bytes.
    const payload = Buffer.from(
      '{"id":"evt_1",  "type":"checkout.session.completed","data":{"object":{"note":"Zürich"}}}\n',
    );
    const signature = `t=1700000000,v1=${createHmac('sha256', 'whsec_test').update(payload).digest('hex')}`;
    const response = await request(suite.gateway.app)
      .post('/payments/webhook')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', signature)
      .send(payload.toString('utf8')); // a string goes out as its UTF-8 bytes; a Buffer would be JSON-encoded
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ received: true });
    const received = suite.upstreams.billing.received.at(-1);
    expect(Buffer.compare(received?.body ?? Buffer.alloc(0), payload)).toBe(0);
    expect(received?.headers['stripe-signature']).toBe(signature);
  });

  it('refuses a webhook without its signature header', async () => {
    const response = await request(suite.gateway.app).post('/payments/webhook').send({ id: 'evt_2' });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('stripe-signature is required');
  });
});

describe('rate limits', () => {
  const suite = gatewaySuite({ RATE_LIMIT_PER_IP: '8', RATE_LIMIT_PER_SESSION: '3', RATE_LIMIT_SIGN_IN_PER_IP: '2' });

  it('limits sign-in more strictly, then a session, then the address', async () => {
    const signIn = () => request(suite.gateway.app).post('/auth/google').send({ credential: 'id-token' });
    expect((await signIn()).status).toBe(200);
    expect((await signIn()).status).toBe(200);
    const limitedSignIn = await signIn();
    expect(limitedSignIn.status).toBe(429);
    expect(limitedSignIn.body.code).toBe(429);
    expect(limitedSignIn.body.error).toMatch(
      /^Too many sign-in attempts\. Please wait (a minute|\d+ seconds) and try again\.$/,
    );

    const asAlice = () => request(suite.gateway.app).get('/auth/me').set('X-Session-Key', 'key-alice');
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await asAlice()).status).toBe(200);
    const limitedSession = await asAlice();
    expect(limitedSession.status).toBe(429);
    expect(limitedSession.body.error).toMatch(/^Too many requests, please slow down and try again in /);
    expect(limitedSession.headers['ratelimit']).toBeDefined();

    // Another session has its own bucket: allowed, as the eighth request from this address.
    const asBob = () => request(suite.gateway.app).get('/auth/me').set('X-Session-Key', 'key-bob');
    expect((await asBob()).status).toBe(200);
    // The ninth from this address is over the per-IP limit, whatever the session.
    const limitedAddress = await asBob();
    expect(limitedAddress.status).toBe(429);
    expect((await request(suite.gateway.app).get('/healthz')).status).toBe(200);
  });
});

describe('owning service unreachable or slow', () => {
  let releaseSlowAnswer: () => void = () => undefined;

  // The slow answer is released first so the stand-in can close: jest runs afterAll hooks in the order they are
  // declared.
  afterAll(() => {
    releaseSlowAnswer();
  });
  const suite = gatewaySuite(
    { UPSTREAM_TIMEOUT_MS: '300' },
    {
      bulk: (app) => {
        app.get('/image-gen/bulk-jobs', (_req, res) => {
          // Never answers within the gateway's time limit; answered at teardown so the server can close.
          releaseSlowAnswer = () => res.json({ jobs: [] });
        });
      },
    },
  );

  beforeAll(async () => {
    await suite.upstreams.billing.close();
  });

  it('answers 503 JSON at once when the owner is down', async () => {
    const response = await request(suite.gateway.app).get('/payment-records').set('X-Session-Key', 'key-alice');
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ code: 503, error: 'Service temporarily unavailable' });
  });

  it('answers 504 JSON when the owner does not answer in time', async () => {
    const response = await request(suite.gateway.app).get('/image-gen/bulk-jobs').set('X-Session-Key', 'key-alice');
    expect(response.status).toBe(504);
    expect(response.body).toEqual({
      code: 504,
      error: 'Service temporarily unavailable: no answer in time. Please try again.',
    });
  });
});
