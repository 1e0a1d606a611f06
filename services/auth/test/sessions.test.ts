import { createHash } from 'node:crypto';
import request from 'supertest';
import { DAY_MS, MongoFixture, signInDev, startTestService, type TestService } from './helpers';

jest.setTimeout(60_000);

const mongo = new MongoFixture();
let auth: TestService;

beforeAll(async () => {
  await mongo.start();
  // Short, distinct limits make the two deadlines easy to tell apart.
  auth = await startTestService(mongo, { env: { SESSION_IDLE_DAYS: '14', SESSION_ABSOLUTE_DAYS: '30' } });
});

afterAll(async () => {
  await auth?.close();
  await mongo.stop();
});

const me = (key?: string) => {
  const call = request(auth.service.app).get('/auth/me');
  return key === undefined ? call : call.set('X-Session-Key', key);
};

function storedSession(key: string) {
  const hash = createHash('sha256').update(key).digest('hex');
  return auth.connection.collection('sessions').findOne({ key_hash: hash });
}

describe('session keys', () => {
  it('stores only the SHA-256 of the key', async () => {
    const { session_key: key } = await signInDev(auth, 'hash@example.com');
    const stored = await storedSession(key);
    expect(stored).not.toBeNull();
    const everything = JSON.stringify(await auth.connection.collection('sessions').find().toArray());
    expect(everything).not.toContain(key);
  });

  it('answers 401 {code, error} without a key, with a tampered key and with junk', async () => {
    const { session_key: key, user } = await signInDev(auth, 'tamper@example.com');
    expect((await me(key).expect(200)).body).toMatchObject({ id: user.id, email: 'tamper@example.com' });

    const lastChar = key.at(-1) === 'A' ? 'B' : 'A';
    const tampered = `${key.slice(0, -1)}${lastChar}`;
    for (const bad of [undefined, tampered, 'local', '', 'x'.repeat(5000), `${key}x`]) {
      const response = await me(bad).expect(401);
      expect(response.body).toEqual({ code: 401, error: 'Unauthorized' });
    }
  });

  it('revokes the key at logout; other sessions of the user stay valid', async () => {
    const first = await signInDev(auth, 'logout@example.com');
    const second = await signInDev(auth, 'logout@example.com');
    const response = await request(auth.service.app)
      .post('/auth/logout')
      .set('X-Session-Key', first.session_key)
      .expect(200);
    expect(response.body).toEqual({ success: true });
    await me(first.session_key).expect(401);
    await request(auth.service.app).post('/auth/logout').set('X-Session-Key', first.session_key).expect(401);
    expect(await storedSession(first.session_key)).toBeNull();
    await me(second.session_key).expect(200);
  });
});

describe('expiry (injected clock)', () => {
  it('expires a session left idle longer than the idle limit', async () => {
    const { session_key: key } = await signInDev(auth, 'idle@example.com');
    auth.clock.advance(14 * DAY_MS - 60_000);
    await me(key).expect(200);
    // The request above moved the idle deadline: 14 more days from now.
    auth.clock.advance(14 * DAY_MS - 60_000);
    await me(key).expect(200);
    auth.clock.advance(14 * DAY_MS + 1000);
    await me(key).expect(401);
    expect(await storedSession(key)).toBeNull();
  });

  it('expires a session at its absolute limit however active it is', async () => {
    const { session_key: key } = await signInDev(auth, 'absolute@example.com');
    for (let day = 10; day < 30; day += 10) {
      auth.clock.advance(10 * DAY_MS);
      await me(key).expect(200);
    }
    auth.clock.advance(10 * DAY_MS + 1000);
    await me(key).expect(401);
  });

  it('moves the idle deadline at most once a minute', async () => {
    const { session_key: key } = await signInDev(auth, 'touch@example.com');
    const initial = await storedSession(key);
    auth.clock.advance(30_000);
    await me(key).expect(200);
    expect((await storedSession(key))?.last_seen_at).toEqual(initial?.last_seen_at);
    auth.clock.advance(31_000);
    await me(key).expect(200);
    const touched = await storedSession(key);
    expect(touched?.last_seen_at.getTime()).toBe(auth.clock.now().getTime());
    expect(touched?.idle_expires_at.getTime()).toBe(auth.clock.now().getTime() + 14 * DAY_MS);
  });
});

describe('GET /internal/sessions/verify (the gateway session check)', () => {
  it('answers the userId of a valid key and 401 otherwise', async () => {
    const { session_key: key, user } = await signInDev(auth, 'verify@example.com');
    const ok = await request(auth.service.app).get('/internal/sessions/verify').set('X-Session-Key', key).expect(200);
    expect(ok.body).toEqual({ userId: user.id });
    const missing = await request(auth.service.app).get('/internal/sessions/verify').expect(401);
    expect(missing.body).toEqual({ code: 401, error: 'Unauthorized' });
    await request(auth.service.app).post('/auth/logout').set('X-Session-Key', key).expect(200);
    await request(auth.service.app).get('/internal/sessions/verify').set('X-Session-Key', key).expect(401);
  });
});
