import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { gatewaySuite, GENERATION_UUID } from './helpers';

jest.setTimeout(30_000);

/** 300 KiB of random bytes: larger than any socket buffer, so it really streams. */
const IMAGE_BYTES = randomBytes(300 * 1024);

/** Collects the raw answer bytes (supertest would otherwise try to decode them). */
function binaryParser(res: request.Response, callback: (error: Error | null, body: Buffer) => void): void {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => callback(null, Buffer.concat(chunks)));
  stream.on('error', (error: Error) => callback(error, Buffer.alloc(0)));
}

describe('session check', () => {
  // A TTL far longer than the test, so only eviction can end a cached session.
  const suite = gatewaySuite({ SESSION_CACHE_TTL_MS: '600000' });

  it('answers 401 without a key and with an unknown key, never reaching the owner', async () => {
    const before = suite.upstreams.auth.received.filter((entry) => entry.url === '/auth/me').length;
    const missing = await request(suite.gateway.app).get('/auth/me');
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ code: 401, error: 'Unauthorized' });
    const unknown = await request(suite.gateway.app).get('/auth/me').set('X-Session-Key', 'key-mallory');
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ code: 401, error: 'Unauthorized' });
    expect(suite.upstreams.auth.received.filter((entry) => entry.url === '/auth/me')).toHaveLength(before);
  });

  it('forwards the verified user as X-User-Id and drops a client-sent one', async () => {
    const response = await request(suite.gateway.app)
      .get('/records')
      .set('X-Session-Key', 'key-bob')
      .set('X-User-Id', 'user-alice');
    expect(response.status).toBe(200);
    const received = suite.upstreams.generation.received.at(-1);
    expect(received?.headers['x-user-id']).toBe('user-bob');
    // Only auth sees session keys; the other services trust X-User-Id.
    expect(received?.headers['x-session-key']).toBeUndefined();
  });

  it('strips a client-sent X-User-Id on routes without a session', async () => {
    const response = await request(suite.gateway.app).get('/image-gen/categories').set('X-User-Id', 'user-alice');
    expect(response.status).toBe(200);
    expect(response.body.userId).toBeNull();
    expect(suite.upstreams.generation.received.at(-1)?.headers['x-user-id']).toBeUndefined();
  });

  it('shares one check among concurrent requests with the same key', async () => {
    const before = suite.upstreams.auth.verifyCalls();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        request(suite.gateway.app).get('/style-presets').set('X-Session-Key', 'key-carol'),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(suite.upstreams.auth.verifyCalls()).toBe(before + 1);
  });

  it('asks auth once per key within the TTL and again after logout', async () => {
    const key = { 'X-Session-Key': 'key-alice' };
    const first = await request(suite.gateway.app).get('/auth/me').set(key);
    expect(first.status).toBe(200);
    const callsAfterFirst = suite.upstreams.auth.verifyCalls();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await request(suite.gateway.app).get('/payment-records').set(key)).status).toBe(200);
    }
    expect(suite.upstreams.auth.verifyCalls()).toBe(callsAfterFirst);

    const logout = await request(suite.gateway.app).post('/auth/logout').set(key);
    expect(logout.status).toBe(200);
    expect(logout.body).toEqual({ success: true });
    // The logout reached auth with the key, so auth could revoke it.
    expect(suite.upstreams.auth.received.at(-1)?.headers['x-session-key']).toBe('key-alice');

    const afterLogout = await request(suite.gateway.app).get('/auth/me').set(key);
    expect(afterLogout.status).toBe(401);
    expect(suite.upstreams.auth.verifyCalls()).toBe(callsAfterFirst + 1);
  });
});

describe('download routes', () => {
  const suite = gatewaySuite(
    {},
    {
      generation: (app) => {
        app.get('/download/:id/image/:index', (req, res) => {
          if (req.headers['x-user-id'] !== 'user-alice') {
            res.status(404).json({ code: 404, error: 'Not Found' });
            return;
          }
          res.type('image/png').setHeader('Content-Disposition', 'attachment; filename="image-0.png"');
          res.send(IMAGE_BYTES);
        });
      },
    },
  );

  it('accepts the session_key cookie and streams the binary answer intact', async () => {
    const response = await request(suite.gateway.app)
      .get(`/download/${GENERATION_UUID}/image/0`)
      .set('Cookie', 'theme=dark; session_key=key-alice')
      .buffer(true)
      .parse(binaryParser);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['content-disposition']).toBe('attachment; filename="image-0.png"');
    expect(Buffer.compare(response.body as Buffer, IMAGE_BYTES)).toBe(0);
    // Loadable as an <img> from the web app at any host (two ports of one IP address are two sites to Chromium).
    expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });

  it('accepts the cookie on the other routes too, which stay same-site', async () => {
    const response = await request(suite.gateway.app).get('/auth/me').set('Cookie', 'session_key=key-alice');
    expect(response.status).toBe(200);
    expect(response.headers['cross-origin-resource-policy']).toBe('same-site');
  });

  it('answers 401 on a download without any key', async () => {
    const response = await request(suite.gateway.app).get(`/download/${GENERATION_UUID}/image/0`);
    expect(response.status).toBe(401);
  });
});

describe('session check with auth down', () => {
  const suite = gatewaySuite();

  beforeAll(async () => {
    await suite.upstreams.auth.close();
  });

  it('answers 503 for a session route instead of letting the caller in or hanging', async () => {
    const response = await request(suite.gateway.app).get('/records').set('X-Session-Key', 'key-alice');
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ code: 503, error: 'Service temporarily unavailable' });
    expect(suite.upstreams.generation.received).toHaveLength(0);
  });

  it('serves an optional-session route anonymously', async () => {
    const response = await request(suite.gateway.app).get('/image-gen/categories').set('X-Session-Key', 'key-alice');
    expect(response.status).toBe(200);
    expect(response.body.userId).toBeNull();
  });
});
