import {
  giveBackCreditResponseSchema,
  internalBillingPaths,
  internalBillingUserPath,
  reserveCreditsResponseSchema,
  userBillingSchema,
  type GiveBackCreditRequest,
  type GiveBackCreditResponse,
  type ReserveCreditsRequest,
  type ReserveCreditsResponse,
  type UserBilling,
} from '@productgen/contracts';
import { createInternalHttpClient } from '@productgen/service-kit';

/** What generation needs from billing (its internal endpoints); tests and the embedded launcher may inject one. */
export interface BillingClient {
  /** All or nothing; a 402 AppError when the balance is short. Safe to retry (keyed by generationUuid). */
  reserve(request: ReserveCreditsRequest): Promise<ReserveCreditsResponse>;
  /** Once per (generationUuid, imageIndex); safe to retry. */
  giveBack(request: GiveBackCreditRequest): Promise<GiveBackCreditResponse>;
  userBilling(userId: string): Promise<UserBilling>;
}

export function createBillingClient(options: { baseUrl: string; timeoutMs?: number }): BillingClient {
  const http = createInternalHttpClient({ baseUrl: options.baseUrl, target: 'billing', timeoutMs: options.timeoutMs });
  return {
    reserve: (request) =>
      http.post(internalBillingPaths.reserve, { body: request, schema: reserveCreditsResponseSchema }),
    giveBack: (request) =>
      http.post(internalBillingPaths.giveBack, { body: request, schema: giveBackCreditResponseSchema }),
    userBilling: (userId) => http.get(internalBillingUserPath(userId), { schema: userBillingSchema }),
  };
}
