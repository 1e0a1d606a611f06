/*
 * One interface for card payments: Stripe in production, the built-in dev checkout in embedded mode. Both create
 * hosted checkout sessions and deliver webhooks signed as Stripe signs them, so the webhook code is the same.
 */

export interface CheckoutSessionRequest {
  userId: string;
  packageId: number;
  /** Line item shown on the hosted page. */
  productName: string;
  amountCents: number;
  currency: string;
  /** May contain Stripe's {CHECKOUT_SESSION_ID} template, which the provider fills in. */
  successUrl: string;
  cancelUrl: string;
  /** The API origin the buyer addressed: the dev checkout serves its page there (Stripe hosts its own). */
  hostedPageOrigin?: string;
  metadata: Record<string, string>;
  /** Makes a retried create return the same session instead of a second one. */
  idempotencyKey: string;
}

export interface ProviderCheckoutSession {
  id: string;
  /** Hosted checkout page to send the browser to. */
  url: string | null;
  /** Stripe's values: open, complete, expired (kept open-ended, as Stripe may add more). */
  status: string;
  /** Stripe's values: paid, unpaid, no_payment_required. */
  paymentStatus: string;
  metadata: Record<string, string>;
  amountTotal: number | null;
  currency: string | null;
}

/** The part of a verified event billing reads. */
export interface VerifiedWebhookEvent {
  id: string;
  type: string;
  data: { object: unknown };
}

/** The webhook's signature header is missing, malformed, wrong for the body, or too old. */
export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError';
}

/** The provider could not be reached or refused the call. */
export class PaymentProviderError extends Error {
  override name = 'PaymentProviderError';
}

export interface PaymentProvider {
  readonly kind: 'stripe' | 'dev';
  createCheckoutSession(request: CheckoutSessionRequest): Promise<ProviderCheckoutSession>;
  /** Null when the provider does not know the session. */
  retrieveCheckoutSession(sessionId: string): Promise<ProviderCheckoutSession | null>;
  /** Checks the signature on the exact bytes received; `receivedAt` bounds the replay window. */
  verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined, receivedAt: Date): VerifiedWebhookEvent;
}

/** Stripe's placeholder in success URLs, replaced by the session id when the browser is sent back. */
export const CHECKOUT_SESSION_ID_TEMPLATE = '{CHECKOUT_SESSION_ID}';
