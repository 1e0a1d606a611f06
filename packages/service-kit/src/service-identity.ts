import type { RequestHandler } from 'express';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { USER_ID_HEADER } from './contract-routes';
import { AppError } from './errors';

/*
 * Service-to-service authentication. Every call a service receives carries a short-lived token signed with the one
 * secret the platform's processes share (HS256 JWT): the gateway's says which user it verified (`sub`), another
 * service's internal call says which service it is (`iss`) and, when it acts for a user, that user. A service reads
 * the user from a token it verified, never from a bare X-User-Id, so a pod that can reach a service cannot act as any
 * user or call /internal/* without the secret.
 */

/** The request header carrying the token. */
export const SERVICE_TOKEN_HEADER = 'x-service-token';
/** Tokens name this audience, so one signed for something else with the same key is refused. */
const AUDIENCE = 'productgen-services';
/** Long enough for one call (and a clock a little off), short enough that a captured token soon stops working. */
const TOKEN_LIFETIME_SECONDS = 60;
const ALGORITHM = 'HS256';

export const SERVICE_AUTH_SECRET_MIN_LENGTH = 32;

/** The shared secret, the same in the gateway and every service. */
export const serviceAuthConfig = {
  SERVICE_AUTH_SECRET: z
    .string({ error: 'required: the secret the gateway and the services share to sign their calls' })
    .min(
      SERVICE_AUTH_SECRET_MIN_LENGTH,
      `must be at least ${SERVICE_AUTH_SECRET_MIN_LENGTH} characters (e.g. \`openssl rand -hex 32\`)`,
    ),
};

export interface VerifiedCaller {
  /** The signing process: gateway, auth, billing, generation, bulk. */
  service: string;
  /** The user the caller vouches for, if any. */
  userId: string | undefined;
}

export interface ServiceIdentity {
  /** A token for one call, naming this process and, when given, the user it acts for. */
  sign(userId?: string): Promise<string>;
  /** The caller of a token; throws an AppError 401 for a missing, forged, expired or foreign one. */
  verify(token: string | undefined): Promise<VerifiedCaller>;
}

export const MISSING_SERVICE_TOKEN_MESSAGE =
  'This service answers only calls signed by the gateway or another ProductGen service; the request carries no X-Service-Token.';
export const FORGED_USER_MESSAGE =
  'X-User-Id is accepted only inside a token signed by the gateway or another ProductGen service; this request carries none.';
export const INVALID_SERVICE_TOKEN_MESSAGE =
  'The X-Service-Token is not valid (forged, expired or signed with another secret).';

export function createServiceIdentity(secret: string, serviceName: string): ServiceIdentity {
  if (secret.length < SERVICE_AUTH_SECRET_MIN_LENGTH) {
    throw new Error(`SERVICE_AUTH_SECRET must be at least ${SERVICE_AUTH_SECRET_MIN_LENGTH} characters`);
  }
  const key = new TextEncoder().encode(secret);
  return {
    async sign(userId) {
      const token = new SignJWT({})
        .setProtectedHeader({ alg: ALGORITHM })
        .setIssuer(serviceName)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${TOKEN_LIFETIME_SECONDS}s`);
      if (userId) token.setSubject(userId);
      return token.sign(key);
    },
    async verify(token) {
      if (!token) throw AppError.unauthorized(MISSING_SERVICE_TOKEN_MESSAGE);
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: [ALGORITHM], audience: AUDIENCE });
        if (typeof payload.iss !== 'string') throw new joseErrors.JWTClaimValidationFailed('no issuer', payload);
        return { service: payload.iss, userId: payload.sub };
      } catch (error) {
        if (error instanceof joseErrors.JOSEError) throw AppError.unauthorized(INVALID_SERVICE_TOKEN_MESSAGE);
        throw error;
      }
    },
  };
}

/** Paths every process answers to anyone who can reach it: the probes and metrics. */
const OPEN_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Verifies the caller of every request but the probes (401 in words otherwise) and puts the user the token names, and
 * only that one, in X-User-Id for the routes (requireGatewayUser) to read.
 */
export function verifyServiceCalls(identity: ServiceIdentity): RequestHandler {
  return (req, _res, next) => {
    if (OPEN_PATHS.has(req.path)) return next();
    const header = req.headers[SERVICE_TOKEN_HEADER];
    const token = Array.isArray(header) ? header[0] : header;
    if (!token && req.headers[USER_ID_HEADER] !== undefined) return next(AppError.unauthorized(FORGED_USER_MESSAGE));
    identity.verify(token).then(
      (caller) => {
        if (caller.userId) req.headers[USER_ID_HEADER] = caller.userId;
        else delete req.headers[USER_ID_HEADER];
        next();
      },
      (error: unknown) => next(error),
    );
  };
}
