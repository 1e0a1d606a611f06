import { randomUUID } from 'node:crypto';
import type { Model } from 'mongoose';
import { getPackageTier, type PaymentRecord, type PurchasablePackageId } from '@productgen/contracts';
import type { Logger } from '@productgen/service-kit';
import { checkoutMetadataSchema, interpretCheckoutEvent, type CheckoutSignal } from '../domain/checkout-events';
import { planPurchase } from '../domain/ledger';
import type { Ledger } from '../data/ledger';
import type { CheckoutDocument } from '../data/models';
import { CHECKOUT_SESSION_ID_TEMPLATE, type PaymentProvider, type VerifiedWebhookEvent } from './provider';

/*
 * Checkout sessions and their payment records. Credits come only from a paid session, once per session (the
 * ledger operation payment:<sessionId>), whichever path sees the payment first: the webhook or check-success.
 */

export const CHECKOUT_CURRENCY = 'usd';

export interface CheckoutServiceOptions {
  provider: PaymentProvider;
  checkouts: Model<CheckoutDocument>;
  ledger: Ledger;
  /** Origin of the web app; success and cancel URLs are absolute on it unless the caller's web origin is known. */
  webUrl: string;
  logger: Logger;
  now: () => Date;
  /** How long the provider's "not paid yet" about a session is reused by check-success (CHECK_SUCCESS_CACHE_MS). */
  providerAnswerTtlMs: number;
  /** Told once per newly credited session (payment.completed). */
  onPaid: (paid: PaidCheckout) => Promise<void>;
}

export interface PaidCheckout {
  userId: string;
  sessionId: string;
  packageId: PurchasablePackageId;
  credits: number;
  amountCents: number;
  currency: string;
}

export interface CreatedCheckout {
  sessionId: string;
  url: string | undefined;
}

export function checkoutUrls(webUrl: string): { successUrl: string; cancelUrl: string } {
  const origin = new URL(webUrl).origin;
  return {
    // Braces kept literal: the provider fills the session id in (Stripe's template).
    successUrl: `${origin}/dashboard?payment=success&session_id=${CHECKOUT_SESSION_ID_TEMPLATE}`,
    cancelUrl: `${origin}/pricing`,
  };
}

function toPaymentRecord(checkout: CheckoutDocument): PaymentRecord {
  const tier = getPackageTier(checkout.package_id as PurchasablePackageId);
  return {
    id: checkout._id,
    created_at: checkout.created_at.toISOString(),
    package: tier.packageId,
    package_name: tier.name,
    amount_cents: checkout.amount_cents,
    currency: checkout.currency,
    credits: checkout.credits,
    status: checkout.status,
    provider_session_id: checkout._id,
  };
}

/** What the provider said about a session, shared by the checks that come while it holds. */
interface ProviderAnswer {
  paid: Promise<boolean>;
  /** Epoch ms; infinite while the call is in flight and once the answer cannot change. */
  until: number;
}

/** Sessions whose answers are kept; the oldest goes first, so the map cannot grow without bound. */
const MAX_REMEMBERED_ANSWERS = 10_000;

export class CheckoutService {
  private readonly providerAnswers = new Map<string, ProviderAnswer>();

  constructor(private readonly options: CheckoutServiceOptions) {}

  get providerKind(): 'stripe' | 'dev' {
    return this.options.provider.kind;
  }

  /**
   * `webOrigin` is where the buyer opened the web app and `apiOrigin` the API host they called (the gateway
   * vouches for both): the payment starts and returns there, so a buyer at http://127.0.0.1:3000 or a LAN name is
   * not sent to the configured host names instead.
   */
  async create(
    userId: string,
    packageId: PurchasablePackageId,
    request: { requestId: string | undefined; webOrigin: string | undefined; apiOrigin: string | undefined },
  ): Promise<CreatedCheckout> {
    const tier = getPackageTier(packageId);
    const { successUrl, cancelUrl } = checkoutUrls(request.webOrigin ?? this.options.webUrl);
    const { requestId } = request;
    const metadata = { userId, packageId: String(packageId) };
    const session = await this.options.provider.createCheckoutSession({
      userId,
      packageId,
      productName: `${tier.name}: ${tier.images} image credits`,
      amountCents: tier.priceCents,
      currency: CHECKOUT_CURRENCY,
      successUrl,
      cancelUrl,
      hostedPageOrigin: request.apiOrigin,
      metadata,
      // One key per client request: the SDK's own retries of this call reuse it.
      idempotencyKey: `checkout-${userId}-${packageId}-${requestId ?? randomUUID()}`,
    });
    await this.options.checkouts.updateOne(
      { _id: session.id },
      {
        $setOnInsert: {
          user_id: userId,
          provider: this.options.provider.kind,
          package_id: packageId,
          credits: tier.images,
          amount_cents: tier.priceCents,
          currency: CHECKOUT_CURRENCY,
          status: 'pending',
          paid_at: null,
        },
      },
      { upsert: true },
    );
    return { sessionId: session.id, url: session.url ?? undefined };
  }

  /** Applies a verified webhook event. Safe for duplicates and any order of events. */
  async handleEvent(event: VerifiedWebhookEvent): Promise<CheckoutSignal> {
    const signal = interpretCheckoutEvent(event);
    const { checkouts, logger } = this.options;
    switch (signal.kind) {
      case 'paid':
        await this.creditPaidSession(signal.sessionId, signal.metadata);
        break;
      case 'failed':
      case 'expired':
        // A paid session stays paid: a late failure or expiry event never takes credits back.
        await checkouts.updateOne(
          { _id: signal.sessionId, status: { $ne: 'paid' } },
          { $set: { status: signal.kind } },
        );
        break;
      case 'awaiting_payment':
        logger.info({ sessionId: signal.sessionId }, 'checkout completed, payment not settled yet');
        break;
      case 'ignored':
        logger.debug({ eventId: event.id, type: event.type, reason: signal.reason }, 'webhook event ignored');
        break;
    }
    return signal;
  }

  /**
   * After the browser returns with payment=success: whether the session is credited. A pending session is looked
   * up at the provider, so a paid one is credited even if its webhook is late.
   */
  async checkSuccess(userId: string, sessionId: string | undefined): Promise<{ paid: boolean }> {
    const { checkouts } = this.options;
    const checkout = sessionId
      ? await checkouts.findOne({ _id: sessionId, user_id: userId }).lean<CheckoutDocument>()
      : await checkouts.findOne({ user_id: userId }).sort({ created_at: -1 }).lean<CheckoutDocument>();
    if (!checkout) return { paid: false };
    if (checkout.status === 'paid') return { paid: true };
    return { paid: await this.providerAnswer(checkout._id) };
  }

  /**
   * Whether the provider says a pending session is paid (crediting it when it is). Every check-success of a pending
   * session used to call Stripe, so a page (or a script) repeating it spent the account's API rate limit: an answer
   * is reused for providerAnswerTtlMs, or for good once it cannot change.
   */
  private providerAnswer(sessionId: string): Promise<boolean> {
    const cached = this.providerAnswers.get(sessionId);
    if (cached && cached.until > this.options.now().getTime()) return cached.paid;
    const asked = this.askProvider(sessionId);
    const answer: ProviderAnswer = { paid: asked.then(({ paid }) => paid), until: Number.POSITIVE_INFINITY };
    this.providerAnswers.delete(sessionId); // re-inserted last: the map's order is the eviction order
    this.providerAnswers.set(sessionId, answer);
    if (this.providerAnswers.size > MAX_REMEMBERED_ANSWERS) {
      this.providerAnswers.delete(this.providerAnswers.keys().next().value as string);
    }
    asked.then(
      ({ settled }) => {
        answer.until = settled
          ? Number.POSITIVE_INFINITY
          : this.options.now().getTime() + this.options.providerAnswerTtlMs;
      },
      // A failed call is not an answer: the next check asks again.
      () => {
        if (this.providerAnswers.get(sessionId) === answer) this.providerAnswers.delete(sessionId);
      },
    );
    return answer.paid;
  }

  private async askProvider(sessionId: string): Promise<{ paid: boolean; settled: boolean }> {
    const session = await this.options.provider.retrieveCheckoutSession(sessionId);
    if (session && (session.paymentStatus === 'paid' || session.paymentStatus === 'no_payment_required')) {
      await this.creditPaidSession(sessionId, session.metadata);
      return { paid: true, settled: true };
    }
    // An expired session, or one the provider does not know, will never be paid.
    return { paid: false, settled: !session || session.status === 'expired' };
  }

  async records(userId: string): Promise<PaymentRecord[]> {
    const found = await this.options.checkouts
      .find({ user_id: userId })
      .sort({ created_at: -1 })
      .limit(100)
      .lean<CheckoutDocument[]>();
    return found.map(toPaymentRecord);
  }

  private async creditPaidSession(sessionId: string, metadata: Record<string, string>): Promise<void> {
    const { checkouts, ledger, logger } = this.options;
    const known = await checkouts.findById(sessionId).lean<CheckoutDocument>();
    // Our own record is the authority; the (signed) metadata covers a session whose record write was lost.
    const fromMetadata = checkoutMetadataSchema.safeParse(metadata);
    const userId = known?.user_id ?? (fromMetadata.success ? fromMetadata.data.userId : undefined);
    const packageId = (known?.package_id ?? (fromMetadata.success ? fromMetadata.data.packageId : undefined)) as
      PurchasablePackageId | undefined;
    if (!userId || !packageId) {
      logger.warn({ sessionId }, 'paid checkout session names no user or package; nothing credited');
      return;
    }
    const tier = getPackageTier(packageId);
    const outcome = await ledger.apply(planPurchase(userId, sessionId, packageId));
    const now = this.options.now();
    await checkouts.updateOne(
      { _id: sessionId },
      {
        $set: { status: 'paid', paid_at: now },
        $setOnInsert: {
          user_id: userId,
          provider: this.options.provider.kind,
          package_id: packageId,
          credits: tier.images,
          amount_cents: tier.priceCents,
          currency: CHECKOUT_CURRENCY,
        },
      },
      { upsert: true },
    );
    if (outcome.status === 'applied' && !outcome.replay) {
      try {
        await this.options.onPaid({
          userId,
          sessionId,
          packageId,
          credits: tier.images,
          amountCents: tier.priceCents,
          currency: CHECKOUT_CURRENCY,
        });
      } catch (error) {
        logger.warn({ err: error, sessionId }, 'payment.completed not published');
      }
    }
  }
}
