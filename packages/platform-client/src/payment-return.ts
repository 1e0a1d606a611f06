import type { PlatformClient } from './client';

export const PAYMENT_REFRESH_INTERVAL_MS = 4_000;
export const PAYMENT_REFRESH_DURATION_MS = 12_000;

export interface PaymentReturnOptions {
  url?: string;
  intervalMs?: number;
  durationMs?: number;
}

/**
 * SPEC §4: after returning from checkout (`payment=success` in the URL) record a Paid event, ask the API to
 * confirm the payment, and fire auth-refresh every 4 s for 12 s so the new credits show up. Returns a stop
 * function (safe to call twice); does nothing when the URL is not a payment return.
 */
export function startPaymentReturnRefresh(
  client: Pick<PlatformClient, 'trackEvent' | 'checkPaymentSuccess' | 'refreshUser'>,
  {
    url = window.location.href,
    intervalMs = PAYMENT_REFRESH_INTERVAL_MS,
    durationMs = PAYMENT_REFRESH_DURATION_MS,
  }: PaymentReturnOptions = {},
): () => void {
  let params: URLSearchParams;
  try {
    params = new URL(url).searchParams;
  } catch {
    return () => undefined;
  }
  if (params.get('payment') !== 'success') return () => undefined;

  const sessionId = params.get('session_id') ?? undefined;
  void client.trackEvent('Paid', sessionId ? { session_id: sessionId } : {});
  // The webhook may land after the redirect; the check lets billing reconcile, the refreshes pick it up.
  client.checkPaymentSuccess(sessionId).then(
    () => client.refreshUser(),
    () => undefined,
  );

  let refreshesLeft = Math.max(1, Math.floor(durationMs / intervalMs));
  const timer = setInterval(() => {
    client.refreshUser();
    if (--refreshesLeft === 0) clearInterval(timer);
  }, intervalMs);
  return () => clearInterval(timer);
}
