import { randomUUID } from 'node:crypto';
import { serviceCallHeaders } from '@productgen/test-kit';
import { signedUpUser, type TestService } from '@productgen/test-kit/billing-service';
import { createLogger } from '@productgen/service-kit';

// What billing's tests share with the other workspaces' tests lives in test-kit (the real billing service among it).
export { collectMessages, TestClock, waitFor } from '@productgen/test-kit';
export { MongoFixture } from '@productgen/test-kit/mongo-fixture';
export {
  grantSignupBonus,
  loopbackOnlyFetch,
  newUserId,
  signedUpUser,
  startTestService,
  topUp,
  waitForBalanceMessage,
  type TestService,
  type TestServiceOptions,
} from '@productgen/test-kit/billing-service';

export const silentLogger = createLogger({ service: 'billing-test', level: 'silent' });
export const HOUR_MS = 60 * 60 * 1000;

export interface JsonAnswer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** A JSON call to the running service; `userId` is the user the gateway's signed token names. */
export async function call<T = Record<string, unknown>>(
  service: TestService,
  method: string,
  pathAndQuery: string,
  options: { userId?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<JsonAnswer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  Object.assign(headers, serviceCallHeaders(options.userId));
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${service.url}${pathAndQuery}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    redirect: 'manual',
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T, headers: response.headers };
}

/** POST /payments/create-checkout-session as the gateway sends it for a signed-in buyer of `packageId`. */
export function createCheckout(
  service: TestService,
  userId: string,
  packageId: number,
  headers?: Record<string, string>,
): Promise<JsonAnswer<{ sessionId: string; url: string }>> {
  return call(service, 'POST', '/payments/create-checkout-session', { userId, body: { package: packageId }, headers });
}

export async function balanceOf(service: TestService, userId: string): Promise<number> {
  return (await service.service.billingOf(userId)).credits;
}

/** POST /internal/credits/reserve, as the generation service calls it. */
export async function reserve(
  service: TestService,
  userId: string,
  count: number,
  generationUuid: string = randomUUID(),
) {
  return call<{ balance: number; watermark: boolean; code?: number; error?: string }>(
    service,
    'POST',
    '/internal/credits/reserve',
    { body: { userId, generationUuid, count } },
  );
}

/** POST /internal/credits/give-back, as the generation service calls it. */
export async function giveBack(
  service: TestService,
  userId: string,
  generationUuid: string,
  imageIndex: number,
  reason: 'failed' | 'skipped' = 'failed',
) {
  return call<{ balance: number; refunded: boolean }>(service, 'POST', '/internal/credits/give-back', {
    body: { userId, generationUuid, imageIndex, reason },
  });
}

/** A user with exactly `credits` (at most 10): the signup bonus, then a reservation of the rest. */
export async function userWithCredits(service: TestService, credits: number): Promise<string> {
  const userId = await signedUpUser(service);
  if (credits < 10) expect((await reserve(service, userId, 10 - credits)).status).toBe(200);
  return userId;
}

/** Every ledger entry of a user, straight from the collection. */
export async function entriesOf(service: TestService, userId: string) {
  return service.connection
    .collection<{ source_ref: string; amount: number; type: 'increase' | 'decrease'; balance_after: number }>(
      'ledger_entries',
    )
    .find({ user_id: userId })
    .toArray();
}
