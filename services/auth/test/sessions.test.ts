import { createHash } from 'node:crypto';
import request from 'supertest';
import { authSuite, DAY_MS, signInDev } from './helpers';

jest.setTimeout(60_000);

// Short, distinct limits make the two deadlines easy to tell apart.
const suite = authSuite({ env: { SESSION_IDLE_DAYS: '14', SESSION_ABSOLUTE_DAYS: '30' } });

const me = (key?: string) => {
  const call = request(suite.auth.service.app).get('/auth/me');
  return key === undefined ? call : call.set('X-Session-Key', key);
};

function storedSession(key: string) {
  const hash = createHash('sha256').update(key).digest('hex');
  return suite.auth.connection.collection('sessions').findOne({ key_hash: hash });
}

describe('session keys', () => {
  it('stores only the SHA-256 of the key', async () => {
    const { session_key: key } = await signInDev(suite.auth, 'hash@example.com');
    const stored = await storedSession(key);
    expect(stored).not.toBeNull();
    const everything = JSON.stringify(await suite.auth.connection.collection('sessions').find().toArray());
    expect(everything).not.toContain(key);
  });

  it('answers 401 {code, error} without a key, with a tampered key and with junk', async () => {
    const { session_key: key, user } = await signInDev(suite.auth, 'tamper@example.com');
    expect((await me(key).expect(200)).body).toMatchObject({ id: user.id, email: 'tamper@example.com' });

    const lastChar = key.at(-1) === 'A' ? 'B' : 'A';
    const tampered = `${key.slice(0, -1)}${lastChar}`;
    for (const bad of [undefined, tampered, 'local', '', 'x'.repeat(5000), `${key}x`]) {
      const response = await me(bad).expect(401);
      expect(response.body).toEqual({ code: 401, error: 'Unauthorized' });
    }
  });

  it('revokes the key at logout; other sessions of the user stay valid', async () => {
    const first = await signInDev(suite.auth, 'logout@example.com');
    const second = await signInDev(suite.auth, 'logout@example.com');
    const response = await request(suite.auth.service.app)
      .post('/auth/logout')
      .set('X-Session-Key', first.session_key)
      .expect(200);
    expect(response.body).toEqual({ success: true });
    await me(first.session_key).expect(401);
    await request(suite.auth.service.app).post('/auth/logout').set('X-Session-Key', first.session_key).expect(401);
    expect(await storedSession(first.session_key)).toBeNull();
    await me(second.session_key).expect(200);
  });
});

describe('expiry (injected clock)', () => {
  it('expires a session left idle longer than the idle limit', async () => {
    const { session_key: key } = await signInDev(suite.auth, 'idle@example.com');
    suite.auth.clock.advance(14 * DAY_MS - 60_000);
    await me(key).expect(200);
    // The request above moved the idle deadline: 14 more days from now.
    suite.auth.clock.advance(14 * DAY_MS - 60_000);
    await me(key).expect(200);
    suite.auth.clock.advance(14 * DAY_MS + 1000);
    await me(key).expect(401);
    expect(await storedSession(key)).toBeNull();
  });

  it('expires a session at its absolute limit however active it is', async () => {
    const { session_key: key } = await signInDev(suite.auth, 'absolute@example.com');
    for (let day = 10; day < 30; day += 10) {
      suite.auth.clock.advance(10 * DAY_MS);
      await me(key).expect(200);
    }
    suite.auth.clock.advance(10 * DAY_MS + 1000);
    await me(key).expect(401);
  });

  it('moves the idle deadline at most once a minute', async () => {
    const { session_key: key } = await signInDev(suite.auth, 'touch@example.com');
    const initial = await storedSession(key);
    suite.auth.clock.advance(30_000);
    await me(key).expect(200);
    expect((await storedSession(key))?.last_seen_at).toEqual(initial?.last_seen_at);
    suite.auth.clock.advance(31_000);
    await me(key).expect(200);
    const touched = await storedSession(key);
    expect(touched?.last_seen_at.getTime()).toBe(suite.auth.clock.now().getTime());
    expect(touched?.idle_expires_at.getTime()).toBe(suite.auth.clock.now().getTime() + 14 * DAY_MS);
  });
});

describe('GET /internal/sessions/verify (the gateway session check)', () => {
  it('answers the userId of a valid key and 401 otherwise', async () => {
    const { session_key: key, user } = await signInDev(suite.auth, 'verify@example.com');
    const ok = await request(suite.auth.service.app)
      .get('/internal/sessions/verify')
      .set('X-Session-Key', key)
      .expect(200);
    expect(ok.body).toEqual({ userId: user.id });
    const missing = await request(suite.auth.service.app).get('/internal/sessions/verify').expect(401);
    expect(missing.body).toEqual({ code: 401, error: 'Unauthorized' });
    await request(suite.auth.service.app).post('/auth/logout').set('X-Session-Key', key).expect(200);
    await request(suite.auth.service.app).get('/internal/sessions/verify').set('X-Session-Key', key).expect(401);
  });
});
