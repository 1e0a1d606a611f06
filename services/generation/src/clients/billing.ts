import {
  billingInternalRoutes,
  type GiveBackCreditRequest,
  type GiveBackCreditResponse,
  type ReservationState,
  type ReserveCreditsRequest,
  type ReserveCreditsResponse,
  type UserBilling,
} from '@productgen/contracts';
import { createInternalApiClient, type ServiceIdentity } from '@productgen/service-kit';

/** What generation needs from billing (its internal endpoints); tests and the embedded launcher may inject one. */
export interface BillingClient {
  /** All or nothing; a 402 AppError when the balance is short. Safe to retry (keyed by generationUuid). */
  reserve(request: ReserveCreditsRequest): Promise<ReserveCreditsResponse>;
  /** Once per (generationUuid, imageIndex); safe to retry. */
  giveBack(request: GiveBackCreditRequest): Promise<GiveBackCreditResponse>;
  userBilling(userId: string): Promise<UserBilling>;
  /** Whether the generation's reservation was applied (the sweeper asks before queueing or failing a creation). */
  reservationState(userId: string, generationUuid: string): Promise<ReservationState>;
}

export function createBillingClient(options: {
  baseUrl: string;
  timeoutMs?: number;
  identity: ServiceIdentity;
}): BillingClient {
  const billing = createInternalApiClient(billingInternalRoutes, { ...options, target: 'billing' });
  return {
    reserve: (request) => billing.reserveCredits({ body: request }),
    giveBack: (request) => billing.giveBackCredit({ body: request }),
    userBilling: (userId) => billing.userBilling({ params: { userId } }),
    reservationState: (userId, generationUuid) => billing.reservationState({ params: { userId, generationUuid } }),
  };
}
