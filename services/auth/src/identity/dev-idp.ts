import { createHash, randomUUID } from 'node:crypto';
import {
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  importJWK,
  SignJWT,
  type JSONWebKeySet,
  type JWK,
  type JWTVerifyGetKey,
  type KeyLike,
} from 'jose';
import type { Model } from 'mongoose';
import type { DevIdpKeyDocument } from '../data/models';

const ALGORITHM = 'RS256';
const KEY_DOCUMENT_ID = 'current';
const CREDENTIAL_LIFETIME_SECONDS = 60 * 60;
const DUPLICATE_KEY = 11000;

export interface DevCredentialRequest {
  email: string;
  givenName?: string | undefined;
  familyName?: string | undefined;
}

/**
 * The built-in identity provider of embedded mode: it signs ID tokens shaped like Google's with a key pair kept
 * in the auth database (so credentials survive restarts), and publishes the public half as a JWKS.
 */
export interface DevIdentityProvider {
  readonly issuer: string;
  readonly jwks: JSONWebKeySet;
  readonly keySet: JWTVerifyGetKey;
  issueCredential(request: DevCredentialRequest, now: Date): Promise<string>;
}

interface StoredKeyPair {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

async function generateStoredKeyPair(): Promise<StoredKeyPair> {
  const { privateKey, publicKey } = await generateKeyPair(ALGORITHM, { modulusLength: 2048, extractable: true });
  const kid = randomUUID();
  return { kid, privateJwk: await exportJWK(privateKey), publicJwk: await exportJWK(publicKey) };
}

function fromDocument(doc: DevIdpKeyDocument): StoredKeyPair {
  return { kid: doc.kid, privateJwk: doc.private_jwk, publicJwk: doc.public_jwk };
}

/** The persisted key pair, generated on first use; two instances starting at once agree on one pair. */
async function loadOrCreateKeyPair(keys: Model<DevIdpKeyDocument>): Promise<StoredKeyPair> {
  const existing = await keys.findById(KEY_DOCUMENT_ID).lean<DevIdpKeyDocument>();
  if (existing) return fromDocument(existing);
  const generated = await generateStoredKeyPair();
  try {
    await keys.create({
      _id: KEY_DOCUMENT_ID,
      kid: generated.kid,
      private_jwk: generated.privateJwk,
      public_jwk: generated.publicJwk,
      created_at: new Date(),
    });
    return generated;
  } catch (error) {
    if ((error as { code?: unknown }).code !== DUPLICATE_KEY) throw error;
    const winner = await keys.findById(KEY_DOCUMENT_ID).lean<DevIdpKeyDocument>();
    if (!winner) throw error;
    return fromDocument(winner);
  }
}

/** One account per address: the same email always signs in as the same dev user. */
function devSubject(email: string): string {
  return createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 32);
}

export async function loadDevIdentityProvider(options: {
  keys: Model<DevIdpKeyDocument>;
  issuer: string;
  audience: string;
}): Promise<DevIdentityProvider> {
  const pair = await loadOrCreateKeyPair(options.keys);
  const privateKey = (await importJWK(pair.privateJwk, ALGORITHM)) as KeyLike;
  const jwks: JSONWebKeySet = { keys: [{ ...pair.publicJwk, kid: pair.kid, alg: ALGORITHM, use: 'sig' }] };
  return {
    issuer: options.issuer,
    jwks,
    keySet: createLocalJWKSet(jwks),
    async issueCredential(request, now) {
      const email = request.email.toLowerCase();
      const givenName = request.givenName?.trim() ?? '';
      const familyName = request.familyName?.trim() ?? '';
      const issuedAt = Math.floor(now.getTime() / 1000);
      return new SignJWT({
        email,
        email_verified: true,
        name: [givenName, familyName].filter(Boolean).join(' ') || email.split('@')[0],
        given_name: givenName,
        family_name: familyName,
      })
        .setProtectedHeader({ alg: ALGORITHM, kid: pair.kid, typ: 'JWT' })
        .setIssuer(options.issuer)
        .setAudience(options.audience)
        .setSubject(devSubject(email))
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + CREDENTIAL_LIFETIME_SECONDS)
        .sign(privateKey);
    },
  };
}
