import { z } from 'zod';

/*
 * What a verified Stripe event means for a checkout session (DESIGN §7): credit only when paid, i.e.
 * checkout.session.completed with payment_status "paid" (or "no_payment_required"), or
 * checkout.session.async_payment_succeeded. A paid session stays paid whatever arrives later, so every order of
 * events (and any number of duplicates) ends in the same balance.
 */

export const checkoutEventTypes = {
  completed: 'checkout.session.completed',
  asyncSucceeded: 'checkout.session.async_payment_succeeded',
  asyncFailed: 'checkout.session.async_payment_failed',
  expired: 'checkout.session.expired',
} as const;

/** Metadata billing puts on every checkout session it creates. */
export const checkoutMetadataSchema = z.object({
  userId: z.string().min(1),
  packageId: z.coerce.number().int().min(1).max(3),
});

const checkoutSessionObjectSchema = z
  .object({
    id: z.string().min(1),
    payment_status: z.string().optional(),
    metadata: z.record(z.string(), z.string()).nullish(),
    amount_total: z.number().int().nonnegative().nullish(),
    currency: z.string().nullish(),
  })
  .loose();

export type CheckoutSignal =
  | {
      kind: 'paid';
      sessionId: string;
      metadata: Record<string, string>;
      amountCents: number | null;
      currency: string | null;
    }
  | { kind: 'awaiting_payment'; sessionId: string }
  | { kind: 'failed'; sessionId: string }
  | { kind: 'expired'; sessionId: string }
  | { kind: 'ignored'; reason: string };

const PAID_STATUSES = new Set(['paid', 'no_payment_required']);

export function interpretCheckoutEvent(event: { type: string; data: { object: unknown } }): CheckoutSignal {
  const known = Object.values(checkoutEventTypes) as string[];
  if (!known.includes(event.type)) return { kind: 'ignored', reason: `event type ${event.type} is not handled` };
  const parsed = checkoutSessionObjectSchema.safeParse(event.data.object);
  if (!parsed.success) return { kind: 'ignored', reason: 'the event carries no checkout session' };
  const session = parsed.data;
  const sessionId = session.id;
  switch (event.type) {
    case checkoutEventTypes.completed:
      if (!PAID_STATUSES.has(session.payment_status ?? '')) return { kind: 'awaiting_payment', sessionId };
      break;
    case checkoutEventTypes.asyncFailed:
      return { kind: 'failed', sessionId };
    case checkoutEventTypes.expired:
      return { kind: 'expired', sessionId };
    default:
      break;
  }
  return {
    kind: 'paid',
    sessionId,
    metadata: session.metadata ?? {},
    amountCents: session.amount_total ?? null,
    currency: session.currency ?? null,
  };
}
