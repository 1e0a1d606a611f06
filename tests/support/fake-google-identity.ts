import { createSign, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The audience the auth service expects when no GOOGLE_CLIENT_ID is configured (embedded mode). */
export const EMBEDDED_GOOGLE_CLIENT_ID = 'productgen-dev-client';
export const GOOGLE_ISSUER = 'https://accounts.google.com';

export type IdTokenClaims = Record<string, unknown>;

/**
 * A stand-in for Google's key endpoint on loopback: the platform started with GOOGLE_JWKS_URL pointing here
 * trusts ID tokens this object signs as Google's, so tests can forge one bad claim at a time (audience, issuer,
 * expiry) with an otherwise valid, correctly signed token.
 */
export interface FakeGoogleIdentity {
  jwksUrl: string;
  /** An RS256 ID token with Google-shaped claims for `email`; `overrides` replace or add claims. */
  idToken(email: string, overrides?: IdTokenClaims): string;
  /** The same token shape signed by a key Google never published (same key id), i.e. a forged signature. */
  idTokenSignedByStranger(email: string): string;
  close(): Promise<void>;
}

function base64url(value: string | Buffer): string {
  return Buffer.from(value).toString('base64url');
}

function signJwt(privateKey: KeyObject, kid: string, claims: IdTokenClaims): string {
  const header = base64url(JSON.stringify({ alg: 'RS256', kid, typ: 'JWT' }));
  const payload = base64url(JSON.stringify(claims));
  const signature = createSign('RSA-SHA256').update(`${header}.${payload}`).sign(privateKey);
  return `${header}.${payload}.${base64url(signature)}`;
}

function googleClaims(email: string, overrides: IdTokenClaims): IdTokenClaims {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: GOOGLE_ISSUER,
    aud: EMBEDDED_GOOGLE_CLIENT_ID,
    sub: `google-${email}`,
    email,
    email_verified: true,
    name: 'Fake Google User',
    given_name: 'Fake',
    family_name: 'User',
    iat: now,
    exp: now + 3600,
    ...overrides,
  };
}

export async function startFakeGoogleIdentity(): Promise<FakeGoogleIdentity> {
  const kid = randomUUID();
  const google = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwks = JSON.stringify({
    keys: [{ ...google.publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }],
  });

  const server = http.createServer((req, res) => {
    if (req.url !== '/oauth2/v3/certs') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(jwks);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    jwksUrl: `http://127.0.0.1:${port}/oauth2/v3/certs`,
    idToken: (email, overrides = {}) => signJwt(google.privateKey, kid, googleClaims(email, overrides)),
    idTokenSignedByStranger: (email) => signJwt(stranger.privateKey, kid, googleClaims(email, {})),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
