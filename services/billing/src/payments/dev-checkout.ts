import { createHash, randomBytes } from 'node:crypto';
import type { Model } from 'mongoose';
import type { DevCheckoutSessionDocument } from '../data/models';
import { signLikeStripe, verifyStripeSignature } from './stripe-signature';
import {
  CHECKOUT_SESSION_ID_TEMPLATE,
  type CheckoutSessionRequest,
  type PaymentProvider,
  type ProviderCheckoutSession,
  type VerifiedWebhookEvent,
} from './provider';

/*
 * The built-in hosted checkout of embedded mode (DESIGN §8): it keeps its own sessions (what Stripe would hold),
 * serves a card form, and on Pay delivers a checkout.session.completed event signed exactly as Stripe signs it.
 */

export interface DevCheckoutOptions {
  sessions: Model<DevCheckoutSessionDocument>;
  webhookSecret: string;
  toleranceSeconds: number;
  /** Public origin where the browser reaches the dev checkout page (the API gateway). */
  publicApiUrl: string;
  now: () => Date;
}

export interface SignedWebhook {
  payload: string;
  signature: string;
}

export interface DevCheckout extends PaymentProvider {
  readonly kind: 'dev';
  find(sessionId: string): Promise<DevCheckoutSessionDocument | null>;
  /** Marks the session paid (once; paying again changes nothing) and returns it. */
  pay(sessionId: string): Promise<DevCheckoutSessionDocument | null>;
  /** The checkout.session.completed event of a paid session, with its Stripe-Signature header. */
  completedEvent(session: DevCheckoutSessionDocument): SignedWebhook;
  /** Where the browser goes after paying (the success URL with the session id filled in). */
  successUrl(session: DevCheckoutSessionDocument): string;
}

/** The session object as Stripe's API and events show it (the fields billing and clients read). */
function sessionObject(session: DevCheckoutSessionDocument, pageUrl: string) {
  return {
    id: session._id,
    object: 'checkout.session',
    mode: 'payment',
    livemode: false,
    status: session.status,
    payment_status: session.payment_status,
    amount_total: session.amount_cents,
    amount_subtotal: session.amount_cents,
    currency: session.currency,
    client_reference_id: session.client_reference_id,
    metadata: session.metadata,
    success_url: session.success_url,
    cancel_url: session.cancel_url,
    created: Math.floor(session.created_at.getTime() / 1000),
    url: session.status === 'open' ? pageUrl : null,
  };
}

function toProviderSession(session: DevCheckoutSessionDocument, pageUrl: string): ProviderCheckoutSession {
  return {
    id: session._id,
    url: session.status === 'open' ? pageUrl : null,
    status: session.status,
    paymentStatus: session.payment_status,
    metadata: session.metadata,
    amountTotal: session.amount_cents,
    currency: session.currency,
  };
}

export function createDevCheckout(options: DevCheckoutOptions): DevCheckout {
  const { sessions } = options;
  const base = options.publicApiUrl.replace(/\/+$/, '');
  const pageUrl = (sessionId: string, origin = base) => `${origin}/dev-checkout/${encodeURIComponent(sessionId)}`;

  return {
    kind: 'dev',
    async createCheckoutSession(request: CheckoutSessionRequest): Promise<ProviderCheckoutSession> {
      // Derived from the idempotency key: a retried create finds the session the first one made.
      const id = `cs_dev_${createHash('sha256').update(request.idempotencyKey).digest('hex').slice(0, 40)}`;
      await sessions.updateOne(
        { _id: id },
        {
          $setOnInsert: {
            product_name: request.productName,
            amount_cents: request.amountCents,
            currency: request.currency,
            metadata: request.metadata,
            client_reference_id: request.userId,
            success_url: request.successUrl,
            cancel_url: request.cancelUrl,
            status: 'open',
            payment_status: 'unpaid',
            created_at: options.now(),
          },
        },
        { upsert: true },
      );
      const session = await sessions.findById(id).lean<DevCheckoutSessionDocument>();
      if (!session) throw new Error(`Dev checkout session ${id} vanished`);
      return toProviderSession(session, pageUrl(id, request.hostedPageOrigin));
    },
    async retrieveCheckoutSession(sessionId: string): Promise<ProviderCheckoutSession | null> {
      const session = await sessions.findById(sessionId).lean<DevCheckoutSessionDocument>();
      return session ? toProviderSession(session, pageUrl(sessionId)) : null;
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
    find: (sessionId) => sessions.findById(sessionId).lean<DevCheckoutSessionDocument>(),
    async pay(sessionId: string): Promise<DevCheckoutSessionDocument | null> {
      return sessions
        .findOneAndUpdate(
          { _id: sessionId },
          { $set: { status: 'complete', payment_status: 'paid' } },
          { returnDocument: 'after' },
        )
        .lean<DevCheckoutSessionDocument>();
    },
    completedEvent(session: DevCheckoutSessionDocument): SignedWebhook {
      const now = options.now();
      const payload = JSON.stringify(
        {
          id: `evt_dev_${randomBytes(12).toString('hex')}`,
          object: 'event',
          api_version: null,
          created: Math.floor(now.getTime() / 1000),
          livemode: false,
          pending_webhooks: 1,
          type: 'checkout.session.completed',
          data: { object: sessionObject(session, pageUrl(session._id)) },
        },
        null,
        2,
      );
      return { payload, signature: signLikeStripe(payload, options.webhookSecret, now) };
    },
    successUrl: (session) => session.success_url.split(CHECKOUT_SESSION_ID_TEMPLATE).join(session._id),
  };
}
