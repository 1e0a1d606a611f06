import { createHmac } from 'node:crypto';
import type { IncomingMessage, RequestListener } from 'node:http';

/**
 * The shared secret services sign and verify each other's calls with (SERVICE_AUTH_SECRET), as tests configure it.
 */
export const TEST_SERVICE_AUTH_SECRET = 'productgen-tests-shared-service-secret-0123456789';

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/**
 * A service token as the gateway signs one (HS256 JWT, audience productgen-services, 60 s), made synchronously so a
 * test can put it in a header as it builds a request: for tests that call a service directly, as the gateway does.
 */
export function serviceTokenFor(
  userId?: string,
  { secret = TEST_SERVICE_AUTH_SECRET, issuer = 'gateway' }: { secret?: string; issuer?: string } = {},
): string {
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    iss: issuer,
    aud: 'productgen-services',
    iat: now,
    exp: now + 60,
    ...(userId ? { sub: userId } : {}),
  };
  const unsigned = `${base64url(JSON.stringify({ alg: 'HS256' }))}.${base64url(JSON.stringify(claims))}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

/** The header of a direct call to a service as the user (or, without one, as the gateway on an anonymous route). */
export function serviceCallHeaders(userId?: string): { 'x-service-token': string } {
  return { 'x-service-token': serviceTokenFor(userId) };
}

/**
 * Gives a request that carries no service token the gateway's, naming the user of its X-User-Id (the one the gateway
 * would have verified): how a test that calls a service directly stands in for the gateway.
 */
export function addGatewayToken(req: IncomingMessage): void {
  if (req.headers['x-service-token'] !== undefined) return;
  const userId = req.headers['x-user-id'];
  req.headers['x-service-token'] = serviceTokenFor(Array.isArray(userId) ? userId[0] : userId);
}

/** A service's app as the gateway's forwards reach it (addGatewayToken on every request). */
export function behindGateway(app: RequestListener): RequestListener {
  return (req, res) => {
    addGatewayToken(req);
    app(req, res);
  };
}
