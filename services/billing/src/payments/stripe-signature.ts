import Stripe from 'stripe';
import { WebhookSignatureError, type VerifiedWebhookEvent } from './provider';

/*
 * Stripe's webhook signature scheme (HMAC-SHA256 of "<timestamp>.<raw body>", header "t=...,v1=..."), through the
 * SDK's own code, for both verification and the dev checkout's signing, so the two can never disagree.
 */

export function verifyStripeSignature(
  rawBody: Buffer,
  signatureHeader: string | undefined,
  secret: string,
  toleranceSeconds: number,
  receivedAt: Date,
): VerifiedWebhookEvent {
  if (!signatureHeader) throw new WebhookSignatureError('Missing Stripe-Signature header');
  try {
    const event = Stripe.webhooks.constructEvent(
      rawBody,
      signatureHeader,
      secret,
      toleranceSeconds,
      undefined,
      receivedAt.getTime(),
    );
    return event as unknown as VerifiedWebhookEvent;
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
      throw new WebhookSignatureError(error.message);
    }
    // The signature was right but the body is not JSON.
    throw new WebhookSignatureError(
      `Unreadable webhook body: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** A Stripe-Signature header for `payload`, exactly as Stripe would send it at `signedAt`. */
export function signLikeStripe(payload: string, secret: string, signedAt: Date): string {
  return Stripe.webhooks.generateTestHeaderString({
    payload,
    secret,
    timestamp: Math.floor(signedAt.getTime() / 1000),
  });
}
