import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeGoogleIdentity, type FakeGoogleIdentity } from '../support/fake-google-identity';
import { readStoppedPlatformDatabase } from '../support/platform-database';
import {
  signInWithDevIdentity,
  startPlatformProcess,
  type PlatformProcess,
} from '@productgen/test-kit/platform-process';

// Bad input through the one API origin of the running platform (the gateway in front of auth). The auth service's
// own tests cover every case in depth; these prove the whole chain answers them the same way.
jest.setTimeout(120_000);

let dataDir: string;
let google: FakeGoogleIdentity;
let platform: PlatformProcess;
let sessionKey: string;
const ACCEPTED_EMAIL = 'accepted.e2e@example.com';
const MEMBER = { email: 'member.e2e@example.com', given_name: 'Mem', family_name: 'Ber' };

function post(pathname: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${platform.apiUrl}${pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
}

function signInWithGoogle(credential: string): Promise<Response> {
  return post('/auth/google', JSON.stringify({ credential }));
}

function me(key: string): Promise<Response> {
  return fetch(`${platform.apiUrl}/auth/me`, { headers: { 'X-Session-Key': key } });
}

/** The same key with its last character changed to another valid base64url character. */
function tampered(key: string): string {
  const last = key.slice(-1);
  return `${key.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`;
}

const rejectedTokens: Array<[string, string, (google: FakeGoogleIdentity, email: string) => string]> = [
  ['a wrong audience', 'audience.e2e@example.com', (idp, email) => idp.idToken(email, { aud: 'someone-elses-client' })],
  ['a wrong issuer', 'issuer.e2e@example.com', (idp, email) => idp.idToken(email, { iss: 'https://evil.example' })],
  [
    'an expiry in the past',
    'expired.e2e@example.com',
    (idp, email) => {
      const hourAgo = Math.floor(Date.now() / 1000) - 3600;
      return idp.idToken(email, { iat: hourAgo - 3600, exp: hourAgo });
    },
  ],
  ['a bad signature', 'forged.e2e@example.com', (idp, email) => idp.idTokenSignedByStranger(email)],
];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'productgen-bad-input-'));
  google = await startFakeGoogleIdentity();
  // The platform trusts the fake key endpoint as Google's, so each token below is wrong in one way only.
  platform = await startPlatformProcess({ dataDir, env: { GOOGLE_JWKS_URL: google.jwksUrl } });
  sessionKey = (await signInWithDevIdentity(platform.apiUrl, MEMBER)).session_key;
});

afterAll(async () => {
  await platform?.stop('SIGKILL');
  await google?.close();
  await rm(dataDir, { recursive: true, force: true });
});

test('a well-formed Google ID token signs in (so the rejections below are about the one bad claim)', async () => {
  const answer = await signInWithGoogle(google.idToken(ACCEPTED_EMAIL));
  expect(answer.status).toBe(200);
  const body = (await answer.json()) as { session_key: string; user: { email: string } };
  expect(body.user.email).toBe(ACCEPTED_EMAIL);
  expect((await me(body.session_key)).status).toBe(200);
});

test.each(rejectedTokens)('an ID token with %s answers 401 and starts no session', async (_case, email, makeToken) => {
  const answer = await signInWithGoogle(makeToken(google, email));
  expect(answer.status).toBe(401);
  expect(await answer.json()).toEqual({ code: 401, error: 'Failed to verify Google token' });
  expect(answer.headers.get('set-cookie')).toBeNull();
});

test('a tampered session key answers 401 while the real one still works', async () => {
  const answer = await me(tampered(sessionKey));
  expect(answer.status).toBe(401);
  expect(await answer.json()).toEqual({ code: 401, error: 'Unauthorized' });
  expect((await me(sessionKey)).status).toBe(200);
});

test('a site_url that is not a web address answers 400 with a clear message and changes nothing', async () => {
  const answer = await post('/user/settings', JSON.stringify({ site_url: 'not a url' }), {
    'X-Session-Key': sessionKey,
  });
  expect(answer.status).toBe(400);
  expect(await answer.json()).toMatchObject({
    code: 400,
    error: 'site_url must be a web address starting with http:// or https://, or empty',
  });
  expect(await (await me(sessionKey)).json()).toMatchObject({ site_url: '' });
});

test('an oversized body answers 413 before it reaches the service', async () => {
  const body = JSON.stringify({ site_url: `https://example.com/${'a'.repeat(2 * 1024 * 1024)}` });
  const answer = await post('/user/settings', body, { 'X-Session-Key': sessionKey });
  expect(answer.status).toBe(413);
  expect(await answer.json()).toMatchObject({
    code: 413,
    error: expect.stringMatching(/^The request body is too large/),
  });
});

test('the rejected sign-ins left no user and no session behind', async () => {
  expect(await platform.stop('SIGINT')).toBe(0);
  const { emails, sessions } = await readStoppedPlatformDatabase(dataDir, 'auth', async (db) => ({
    emails: (await db.collection('users').find({}).toArray()).map((user) => user['email'] as string).sort(),
    sessions: await db.collection('sessions').countDocuments({}),
  }));
  expect(emails).toEqual([ACCEPTED_EMAIL, MEMBER.email].sort());
  // One per successful sign-in: the member's and the accepted Google user's.
  expect(sessions).toBe(2);
});
