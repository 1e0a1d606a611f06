import request from 'supertest';
import { CROSS_SITE_REFUSAL_MESSAGE } from '../src/domain/browser-session';
import { gatewaySuite } from './helpers';

jest.setTimeout(30_000);

const WEB_ORIGIN = 'http://localhost:3000';
const SIGN_IN_BODY = { credential: 'good', access_token: null, ref_code: null };

/** The Set-Cookie lines of an answer. */
function setCookies(response: request.Response): string[] {
  const value = response.headers['set-cookie'] as string[] | string | undefined;
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** One Set-Cookie line's attributes, lower-cased names. */
function attributes(line: string): Map<string, string> {
  return new Map(
    line.split(';').map((part) => {
      const [name = '', ...value] = part.trim().split('=');
      return [name.toLowerCase(), value.join('=')] as const;
    }),
  );
}

describe('the browser session cookie and cross-site refusals', () => {
  const suite = gatewaySuite({ WEB_ORIGINS: WEB_ORIGIN, TRUST_PROXY: 'true', SESSION_COOKIE_DAYS: '7' });

  it('sign-in from the web app sets an HttpOnly, SameSite=Lax, host-only cookie and keeps the key out of the body', async () => {
    const response = await request(suite.gateway.app)
      .post('/auth/google')
      .set('Origin', WEB_ORIGIN)
      .set('Sec-Fetch-Site', 'same-site')
      .set('Sec-Fetch-Mode', 'cors')
      .send(SIGN_IN_BODY);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ user: { id: 'user-alice' } });
    const [line, ...others] = setCookies(response);
    expect(others).toEqual([]);
    const cookie = attributes(line ?? '');
    expect(cookie.get('session_key')).toBe('key-alice');
    expect(cookie.has('httponly')).toBe(true);
    expect(cookie.get('samesite')?.toLowerCase()).toBe('lax');
    expect(cookie.get('path')).toBe('/');
    expect(cookie.get('max-age')).toBe(String(7 * 24 * 60 * 60));
    // No Domain: the cookie belongs to whatever host the platform was opened at. Plain http: not Secure.
    expect(cookie.has('domain')).toBe(false);
    expect(cookie.has('secure')).toBe(false);
    expect(response.headers['access-control-allow-credentials']).toBe('true');
  });

  it('marks the cookie Secure when the request came over https', async () => {
    const response = await request(suite.gateway.app)
      .post('/auth/google')
      .set('X-Forwarded-Proto', 'https')
      .set('Origin', WEB_ORIGIN)
      .send(SIGN_IN_BODY);
    expect(response.status).toBe(200);
    expect(attributes(setCookies(response)[0] ?? '').has('secure')).toBe(true);
  });

  it('gives an API client outside a browser its key in the body, to send as X-Session-Key', async () => {
    // Node's fetch sends Sec-Fetch-Mode too, but no Origin.
    const response = await request(suite.gateway.app)
      .post('/auth/google')
      .set('Sec-Fetch-Mode', 'cors')
      .send(SIGN_IN_BODY);
    expect(response.status).toBe(200);
    expect(response.body.session_key).toBe('key-alice');
    const me = await request(suite.gateway.app).get('/auth/me').set('X-Session-Key', response.body.session_key);
    expect(me.status).toBe(200);
  });

  it('sets no cookie when sign-in fails', async () => {
    const response = await request(suite.gateway.app)
      .post('/auth/google')
      .set('Origin', WEB_ORIGIN)
      .send({ ...SIGN_IN_BODY, credential: 'bad' });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ code: 401, error: 'Failed to verify Google token' });
    expect(setCookies(response)).toEqual([]);
  });

  it('authenticates the web app by the cookie on every route, and sends the services the user, never the cookie', async () => {
    const response = await request(suite.gateway.app)
      .post('/style-presets')
      .set('Origin', WEB_ORIGIN)
      .set('Sec-Fetch-Site', 'same-site')
      .set('Cookie', 'session_key=key-bob')
      .send({ generation_uuid: '3f2b8c1e-7d4a-4f6e-9b2a-1c5d8e9f0a7b', image_index: 0, preset_name: 'Mine' });
    expect(response.status).toBe(200);
    const received = suite.upstreams.generation.received.at(-1);
    expect(received?.headers['x-user-id']).toBe('user-bob');
    expect(received?.headers.cookie).toBeUndefined();
    expect(received?.headers['x-session-key']).toBeUndefined();
  });

  it.each([
    ['another site', { Origin: 'https://attacker.example', 'Sec-Fetch-Site': 'cross-site' }],
    ['a form of another site with its Origin hidden', { 'Sec-Fetch-Site': 'cross-site' }],
    ['a sandboxed frame', { Origin: 'null', 'Sec-Fetch-Site': 'cross-site' }],
    ['another port of the same site', { Origin: 'http://localhost:4000', 'Sec-Fetch-Site': 'same-site' }],
  ])('refuses a cookie-authenticated state change from %s (403), never reaching a service', async (_name, headers) => {
    const before = suite.upstreams.generation.received.length;
    const response = await request(suite.gateway.app)
      .post('/style-presets')
      .set(headers)
      .set('Cookie', 'session_key=key-bob')
      .type('text/plain')
      .send(
        JSON.stringify({ generation_uuid: '3f2b8c1e-7d4a-4f6e-9b2a-1c5d8e9f0a7b', image_index: 0, preset_name: 'x' }),
      );
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ code: 403, error: CROSS_SITE_REFUSAL_MESSAGE });
    expect(suite.upstreams.generation.received).toHaveLength(before);
  });

  it('refuses a cross-site sign-in too (login CSRF): no cookie is set', async () => {
    const response = await request(suite.gateway.app)
      .post('/auth/google')
      .set('Origin', 'https://attacker.example')
      .send(SIGN_IN_BODY);
    expect(response.status).toBe(403);
    expect(setCookies(response)).toEqual([]);
  });

  it('refuses a state change without a session (401)', async () => {
    const response = await request(suite.gateway.app)
      .post('/style-presets')
      .set('Origin', WEB_ORIGIN)
      .send({ generation_uuid: '3f2b8c1e-7d4a-4f6e-9b2a-1c5d8e9f0a7b', image_index: 0, preset_name: 'x' });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ code: 401, error: 'Unauthorized' });
  });

  it('a refused cookie key is cleared from the browser', async () => {
    const response = await request(suite.gateway.app).get('/auth/me').set('Cookie', 'session_key=key-mallory');
    expect(response.status).toBe(401);
    const cleared = attributes(setCookies(response)[0] ?? '');
    expect(cleared.get('session_key')).toBe('');
    expect(cleared.get('max-age')).toBe('0');
  });

  it('logout by cookie revokes the key at auth and clears the cookie', async () => {
    const response = await request(suite.gateway.app)
      .post('/auth/logout')
      .set('Origin', WEB_ORIGIN)
      .set('Cookie', 'session_key=key-carol');
    expect(response.status).toBe(200);
    expect(suite.upstreams.auth.received.at(-1)?.headers['x-session-key']).toBe('key-carol');
    expect(attributes(setCookies(response)[0] ?? '').get('max-age')).toBe('0');
    expect((await request(suite.gateway.app).get('/auth/me').set('Cookie', 'session_key=key-carol')).status).toBe(401);
  });
});
