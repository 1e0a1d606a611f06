import { createRemoteJWKSet, decodeJwt, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { z } from 'zod';
import {
  IdentityRejectedError,
  identityClaimsSchema,
  identityFromClaims,
  type VerifiedIdentity,
} from '../domain/identity';

/** Google writes either spelling of its issuer into ID tokens. */
export const GOOGLE_ISSUERS = ['accounts.google.com', 'https://accounts.google.com'] as const;
/** Leeway for clock drift between the provider and us when checking exp/iat/nbf. */
const CLOCK_TOLERANCE_SECONDS = 30;

/** An issuer whose ID tokens we accept, and where its signing keys come from. */
export interface TrustedIssuer {
  provider: VerifiedIdentity['provider'];
  issuers: readonly string[];
  keySet: JWTVerifyGetKey;
}

export interface TokenVerifierOptions {
  /** Our OAuth client id: the audience every token must be issued to. */
  clientId: string;
  trustedIssuers: readonly TrustedIssuer[];
  tokenInfoUrl: string;
  userInfoUrl: string;
  timeoutMs: number;
  fetchImpl: typeof fetch;
  now: () => Date;
}

export function googleIssuer(jwksUrl: string, timeoutMs: number): TrustedIssuer {
  return {
    provider: 'google',
    issuers: GOOGLE_ISSUERS,
    keySet: createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration: timeoutMs }),
  };
}

/** What Google's tokeninfo says about an access token: who it was issued to. */
const tokenInfoSchema = z.object({
  aud: z.string().optional(),
  azp: z.string().optional(),
  sub: z.string().min(1),
});

function reject(reason: string, cause?: unknown): never {
  throw new IdentityRejectedError(reason, { cause });
}

/**
 * Verifies sign-in tokens. ID tokens (Google's, or the dev provider's outside production) go through one path:
 * the issuer picks the key set, then signature, issuer, audience and expiry are checked. Access tokens are checked
 * with the provider (issued to our client id) and the profile is read from its userinfo endpoint.
 * Every failure is an IdentityRejectedError.
 */
export class TokenVerifier {
  constructor(private readonly options: TokenVerifierOptions) {}

  async verifyIdToken(token: string): Promise<VerifiedIdentity> {
    let unverifiedIssuer: unknown;
    try {
      unverifiedIssuer = decodeJwt(token).iss;
    } catch (error) {
      reject('credential is not a JWT', error);
    }
    const trusted = this.options.trustedIssuers.find(
      (candidate) => typeof unverifiedIssuer === 'string' && candidate.issuers.includes(unverifiedIssuer),
    );
    if (!trusted) reject(`issuer ${JSON.stringify(unverifiedIssuer)} is not trusted`);
    try {
      const { payload } = await jwtVerify(token, trusted.keySet, {
        issuer: [...trusted.issuers],
        audience: this.options.clientId,
        algorithms: ['RS256'],
        requiredClaims: ['exp', 'iat', 'sub'],
        currentDate: this.options.now(),
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      });
      return identityFromClaims(trusted.provider, payload);
    } catch (error) {
      if (error instanceof IdentityRejectedError) throw error;
      reject(`ID token rejected: ${error instanceof Error ? error.message : String(error)}`, error);
    }
  }

  async verifyAccessToken(accessToken: string): Promise<VerifiedIdentity> {
    const tokenInfo = tokenInfoSchema.safeParse(
      await this.fetchJson(this.options.tokenInfoUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ access_token: accessToken }).toString(),
      }),
    );
    if (!tokenInfo.success) reject('tokeninfo answer unusable');
    const { aud, azp, sub } = tokenInfo.data;
    // A token issued to another app must not sign anyone in here.
    if (aud !== this.options.clientId && azp !== this.options.clientId)
      reject('access token was issued to another client');

    const userInfo = identityClaimsSchema.safeParse(
      await this.fetchJson(this.options.userInfoUrl, { headers: { authorization: `Bearer ${accessToken}` } }),
    );
    if (!userInfo.success) reject('userinfo answer unusable');
    if (userInfo.data.sub !== sub) reject('userinfo and tokeninfo disagree on the account');
    return identityFromClaims('google', userInfo.data);
  }

  private async fetchJson(url: string, init: RequestInit): Promise<unknown> {
    let response: Response;
    try {
      response = await this.options.fetchImpl(url, {
        ...init,
        headers: { accept: 'application/json', ...(init.headers as Record<string, string>) },
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      reject(`identity provider unreachable at ${new URL(url).host}`, error);
    }
    if (!response.ok) {
      await response.body?.cancel();
      reject(`identity provider answered ${response.status}`);
    }
    try {
      return await response.json();
    } catch (error) {
      reject('identity provider answered with something other than JSON', error);
    }
  }
}
