import Stripe from 'stripe';
import { verifyStripeSignature } from './stripe-signature';
import {
  PaymentProviderError,
  type CheckoutSessionRequest,
  type PaymentProvider,
  type ProviderCheckoutSession,
  type VerifiedWebhookEvent,
} from './provider';

export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string;
  toleranceSeconds: number;
  timeoutMs: number;
  /** Tests point the SDK at a local server; unset means api.stripe.com. */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
  fetchImpl?: typeof fetch;
}

function toSession(session: Stripe.Checkout.Session): ProviderCheckoutSession {
  return {
    id: session.id,
    url: session.url ?? null,
    status: session.status ?? 'open',
    paymentStatus: session.payment_status,
    metadata: session.metadata ?? {},
    amountTotal: session.amount_total ?? null,
    currency: session.currency ?? null,
  };
}

function providerError(action: string, error: unknown): PaymentProviderError {
  const message = error instanceof Error ? error.message : String(error);
  return new PaymentProviderError(`Stripe ${action} failed: ${message}`);
}

export function createStripeProvider(options: StripeProviderOptions): PaymentProvider {
  const stripe = new Stripe(options.secretKey, {
    timeout: options.timeoutMs,
    maxNetworkRetries: 2,
    // No usage reports to Stripe beyond the calls themselves.
    telemetry: false,
    ...(options.host ? { host: options.host } : {}),
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.protocol ? { protocol: options.protocol } : {}),
    ...(options.fetchImpl ? { httpClient: Stripe.createFetchHttpClient(options.fetchImpl) } : {}),
  });

  return {
    kind: 'stripe',
    async createCheckoutSession(request: CheckoutSessionRequest): Promise<ProviderCheckoutSession> {
      try {
        const session = await stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: request.currency,
                  unit_amount: request.amountCents,
                  product_data: { name: request.productName },
                },
              },
            ],
            success_url: request.successUrl,
            cancel_url: request.cancelUrl,
            client_reference_id: request.userId,
            metadata: request.metadata,
            payment_intent_data: { metadata: request.metadata },
          },
          { idempotencyKey: request.idempotencyKey },
        );
        return toSession(session);
      } catch (error) {
        throw providerError('checkout session creation', error);
      }
    },
    async retrieveCheckoutSession(sessionId: string): Promise<ProviderCheckoutSession | null> {
      try {
        return toSession(await stripe.checkout.sessions.retrieve(sessionId));
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
        throw providerError('checkout session lookup', error);
      }
    },
    verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined, receivedAt: Date): VerifiedWebhookEvent {
      return verifyStripeSignature(
        rawBody,
        signatureHeader,
        options.webhookSecret,
        options.toleranceSeconds,
        receivedAt,
      );
    },
  };
}
