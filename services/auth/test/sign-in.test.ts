import { generateKeyPair, exportJWK, SignJWT, type JWK, type KeyLike } from 'jose';
import request from 'supertest';
import { messageSchemas, topics, type AuthSession } from '@productgen/contracts';
import {
  collectMessages,
  devCredential,
  MongoFixture,
  sessionCount,
  signInDev,
  startRecordingServer,
  startTestService,
  TEST_CLIENT_ID,
  type RecordingServer,
  type TestService,
} from './helpers';

jest.setTimeout(60_000);

const FAILED = { code: 401, error: 'Failed to verify Google token' };
const mongo = new MongoFixture();

/** A stand-in for Google on a local port: JWKS, tokeninfo and userinfo. */
interface FakeGoogle {
  server: RecordingServer;
  signingKey: KeyLike;
  kid: string;
  /** access token → what tokeninfo and userinfo say about it */
  accessTokens: Map<string, { aud: string; sub: string; email: string; name: string }>;
}

async function startFakeGoogle(): Promise<FakeGoogle> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const kid = 'google-test-key';
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const accessTokens = new Map<string, { aud: string; sub: string; email: string; name: string }>();
  const json = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const server = await startRecordingServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/certs') return json(res, 200, { keys: [publicJwk] });
      if (req.url === '/tokeninfo' && req.method === 'POST') {
        const token = new URLSearchParams(Buffer.concat(chunks).toString()).get('access_token') ?? '';
        const info = accessTokens.get(token);
        return info
          ? json(res, 200, { aud: info.aud, azp: info.aud, sub: info.sub, expires_in: '3599' })
          : json(res, 400, { error: 'invalid_token' });
      }
      if (req.url === '/userinfo') {
        const info = accessTokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
        return info
          ? json(res, 200, {
              sub: info.sub,
              email: info.email,
              email_verified: true,
              name: info.name,
              picture: 'https://example.com/a.png',
            })
          : json(res, 401, { error: 'invalid_token' });
      }
      json(res, 404, {});
    });
  });
  return { server, signingKey: privateKey, kid, accessTokens };
}

interface TokenOverrides {
  iss?: string;
  aud?: string;
  expiresInSeconds?: number;
  key?: KeyLike;
  sub?: string;
  email?: string;
  /** `email_verified` as sent; undefined leaves the claim out. */
  emailVerified?: unknown;
}

async function googleIdToken(google: FakeGoogle, overrides: TokenOverrides = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    email: overrides.email ?? 'shopper@gmail.example',
    email_verified: 'emailVerified' in overrides ? overrides.emailVerified : true,
    name: 'Shop Per',
    given_name: 'Shop',
    family_name: 'Per',
  })
    .setProtectedHeader({ alg: 'RS256', kid: google.kid })
    .setIssuer(overrides.iss ?? 'https://accounts.google.com')
    .setAudience(overrides.aud ?? TEST_CLIENT_ID)
    .setSubject(overrides.sub ?? '1098765432')
    .setIssuedAt(now - 60)
    .setExpirationTime(now + (overrides.expiresInSeconds ?? 3600))
    .sign(overrides.key ?? google.signingKey);
}

let google: FakeGoogle;
let auth: TestService;

beforeAll(async () => {
  await mongo.start();
  google = await startFakeGoogle();
  auth = await startTestService(mongo, {
    env: {
      GOOGLE_JWKS_URL: `${google.server.url}/certs`,
      GOOGLE_TOKENINFO_URL: `${google.server.url}/tokeninfo`,
      GOOGLE_USERINFO_URL: `${google.server.url}/userinfo`,
    },
  });
});

afterAll(async () => {
  await auth?.close();
  await google?.server.close();
  await mongo.stop();
});

describe('sign-in with the dev identity provider', () => {
  it('creates the user once, keeps the ref code, issues a new key each time and announces the signup once', async () => {
    const signedUp = await collectMessages(auth.bus, 'test.signed-up', [topics.userSignedUp, 'test.marker']);

    const first = await signInDev(auth, 'Maker@Example.com', 'FRIEND42');
    const second = await signInDev(auth, 'maker@example.com', 'OTHER-CODE');

    expect(first.user.id).toBe(second.user.id);
    expect(first.session_key).not.toBe(second.session_key);
    expect(first.session_key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.user).toMatchObject({
      email: 'maker@example.com',
      name: 'Test User',
      given_name: 'Test',
      family_name: 'User',
      credits: 0,
      site_url: '',
      shop_context: [],
      flags: { is_first_generation: true, showSiteUrlTooltip: true },
    });
    const stored = await auth.connection.collection('users').find({ email: 'maker@example.com' }).toArray();
    expect(stored).toHaveLength(1);
    expect(stored[0]?.ref_code).toBe('FRIEND42');

    // Queues are FIFO: once the marker is here, every earlier user.signed_up is too.
    await auth.bus.publish('test.marker', {});
    await new Promise<void>((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error('marker never arrived')), 15_000);
      const poll = setInterval(() => {
        if (signedUp.some((message) => message.topic === 'test.marker')) {
          clearInterval(poll);
          clearTimeout(deadline);
          resolve();
        }
      }, 10);
    });
    const announcements = signedUp.filter((message) => message.topic === topics.userSignedUp);
    expect(announcements).toHaveLength(1);
    const payload = messageSchemas[topics.userSignedUp].parse(announcements[0]?.payload);
    expect(payload).toMatchObject({
      userId: first.user.id,
      email: 'maker@example.com',
      name: 'Test User',
      ref_code: 'FRIEND42',
    });
  });

  it('serves its JWKS and signs credentials for our audience', async () => {
    const jwks = await request(auth.service.app).get('/dev-idp/jwks.json').expect(200);
    expect(jwks.body.keys).toHaveLength(1);
    expect(jwks.body.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256' });
    expect(jwks.body.keys[0].d).toBeUndefined();
    const credential = await devCredential(auth, 'jwks@example.com');
    const [, payload] = credential.split('.');
    expect(JSON.parse(Buffer.from(payload ?? '', 'base64url').toString())).toMatchObject({
      iss: 'productgen-dev-idp',
      aud: TEST_CLIENT_ID,
      email: 'jwks@example.com',
    });
  });

  it('answers 400 with a clear message for a bad credential request', async () => {
    const response = await request(auth.service.app)
      .get('/dev-idp/credential')
      .query({ email: 'not-an-email' })
      .expect(400);
    expect(response.body).toEqual({ code: 400, error: expect.stringContaining('email must be an email address') });
  });

  it('keeps its key across restarts, so earlier credentials still work', async () => {
    const credential = await devCredential(auth, 'restart@example.com');
    const restarted = await startTestService(mongo, { connection: auth.connection });
    try {
      const response = await request(restarted.service.app).post('/auth/google').send({ credential }).expect(200);
      expect(response.body.user.email).toBe('restart@example.com');
    } finally {
      await restarted.close();
    }
  });
});

describe('sign-in with Google ID tokens (verified against a local JWKS)', () => {
  it('accepts a valid token for our client id', async () => {
    const response = await request(auth.service.app)
      .post('/auth/google')
      .send({ credential: await googleIdToken(google), ref_code: null })
      .expect(200);
    const session = response.body as AuthSession;
    expect(session.user).toMatchObject({ email: 'shopper@gmail.example', name: 'Shop Per' });
    await request(auth.service.app).get('/auth/me').set('X-Session-Key', session.session_key).expect(200);
  });

  const rejected: [string, (other: KeyLike) => Promise<string>][] = [
    ['a wrong audience', () => googleIdToken(google, { aud: 'someone-else.apps.example' })],
    ['a wrong issuer', () => googleIdToken(google, { iss: 'https://evil.example' })],
    ['an expired token', () => googleIdToken(google, { expiresInSeconds: -3600 })],
    ['a signature by another key', (other) => googleIdToken(google, { key: other })],
    ['a token that is not a JWT', async () => 'not.a.jwt'],
    // A new address each, so an accepted token would show as a new user.
    [
      'a token without email_verified',
      () => googleIdToken(google, { email: 'unsaid@gmail.example', sub: '201', emailVerified: undefined }),
    ],
    [
      'a token with email_verified false',
      () => googleIdToken(google, { email: 'unverified@gmail.example', sub: '202', emailVerified: false }),
    ],
    [
      'a token with email_verified "false"',
      () => googleIdToken(google, { email: 'unverified2@gmail.example', sub: '203', emailVerified: 'false' }),
    ],
  ];

  it.each(rejected)('refuses %s with 401 and creates no session or user', async (_case, makeToken) => {
    const { privateKey: otherKey } = await generateKeyPair('RS256');
    const credential = await makeToken(otherKey);
    const sessionsBefore = await sessionCount(auth.connection);
    const usersBefore = await auth.connection.collection('users').countDocuments();
    const response = await request(auth.service.app)
      .post('/auth/google')
      .send({ credential, ref_code: 'X' })
      .expect(401);
    expect(response.body).toEqual(FAILED);
    expect(await sessionCount(auth.connection)).toBe(sessionsBefore);
    expect(await auth.connection.collection('users').countDocuments()).toBe(usersBefore);
  });

  it('refuses a token whose issuer is Google but is signed by the dev provider', async () => {
    const devToken = await devCredential(auth, 'spoof@example.com');
    const [header, , signature] = devToken.split('.');
    const forgedPayload = Buffer.from(
      JSON.stringify({
        iss: 'https://accounts.google.com',
        aud: TEST_CLIENT_ID,
        sub: '1',
        email: 'spoof@example.com',
        iat: 1,
        exp: 9999999999,
      }),
    ).toString('base64url');
    const response = await request(auth.service.app)
      .post('/auth/google')
      .send({ credential: `${header}.${forgedPayload}.${signature}` })
      .expect(401);
    expect(response.body).toEqual(FAILED);
  });

  it('answers 400 when neither credential nor access token is sent', async () => {
    const response = await request(auth.service.app).post('/auth/google').send({ ref_code: 'X' }).expect(400);
    expect(response.body.error).toMatch(/credential|access_token/);
  });
});

describe('sign-in with a Google access token (tokeninfo + userinfo on a local server)', () => {
  it('signs in when the token was issued to our client', async () => {
    google.accessTokens.set('good-token', {
      aud: TEST_CLIENT_ID,
      sub: 'g-555',
      email: 'access@gmail.example',
      name: 'Access User',
    });
    const response = await request(auth.service.app)
      .post('/auth/google')
      .send({ access_token: 'good-token', ref_code: 'AT' })
      .expect(200);
    expect(response.body.user).toMatchObject({
      email: 'access@gmail.example',
      name: 'Access User',
      picture: 'https://example.com/a.png',
    });
    const userinfoCall = google.server.requests.find((req) => req.url === '/userinfo');
    expect(userinfoCall?.headers.authorization).toBe('Bearer good-token');
  });

  it('refuses a token issued to another app, and an unknown token', async () => {
    google.accessTokens.set('foreign-token', {
      aud: 'another-app',
      sub: 'g-777',
      email: 'victim@gmail.example',
      name: 'V',
    });
    const sessionsBefore = await sessionCount(auth.connection);
    for (const token of ['foreign-token', 'unknown-token']) {
      const response = await request(auth.service.app).post('/auth/google').send({ access_token: token }).expect(401);
      expect(response.body).toEqual(FAILED);
    }
    expect(await sessionCount(auth.connection)).toBe(sessionsBefore);
  });
});

describe('the dev identity provider is opt-in (DEV_IDENTITY_PROVIDER) and refused outside development', () => {
  it.each([
    ['staging without the flag', { NODE_ENV: 'staging', DEV_IDENTITY_PROVIDER: '' }],
    ['production', { NODE_ENV: 'production', DEV_IDENTITY_PROVIDER: 'false' }],
  ])('%s: no /dev-idp routes, and its tokens do not sign in', async (_name, env) => {
    const devToken = await devCredential(auth, 'elsewhere@example.com');
    const service = await startTestService(mongo, { env: { ...env, GOOGLE_CLIENT_ID: TEST_CLIENT_ID } });
    try {
      expect(service.service.devIdp).toBeUndefined();
      const credential = await request(service.service.app)
        .get('/dev-idp/credential')
        .query({ email: 'a@example.com' })
        .expect(404);
      expect(credential.body).toEqual({ code: 404, error: 'Not Found' });
      await request(service.service.app).get('/dev-idp/jwks.json').expect(404);
      const signIn = await request(service.service.app).post('/auth/google').send({ credential: devToken }).expect(401);
      expect(signIn.body).toEqual(FAILED);
    } finally {
      await service.close();
    }
  });

  it.each(['production', 'staging'])(
    'NODE_ENV=%s with the flag set does not start, naming the variable',
    async (mode) => {
      await expect(
        startTestService(mongo, {
          env: { NODE_ENV: mode, GOOGLE_CLIENT_ID: TEST_CLIENT_ID, DEV_IDENTITY_PROVIDER: 'true' },
        }),
      ).rejects.toThrow(
        `DEV_IDENTITY_PROVIDER: must not be enabled with NODE_ENV=${mode}, only with NODE_ENV=development`,
      );
    },
  );
});
