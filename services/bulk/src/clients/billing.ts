import { billingInternalRoutes } from '@productgen/contracts';
import { createInternalApiClient, type InternalApiClient, type ServiceIdentity } from '@productgen/service-kit';

/** Billing's internal routes (bulk reserves a batch at once and gives back credits of unreadable products). */
export type BillingClient = InternalApiClient<typeof billingInternalRoutes>;

export function createBillingClient(options: {
  baseUrl: string;
  timeoutMs: number;
  identity: ServiceIdentity;
}): BillingClient {
  return createInternalApiClient(billingInternalRoutes, {
    baseUrl: options.baseUrl,
    target: 'billing',
    timeoutMs: options.timeoutMs,
    identity: options.identity,
  });
}
