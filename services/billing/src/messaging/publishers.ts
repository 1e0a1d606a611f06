import type { MessageBus } from '@productgen/bus';
import { parseMessage, topics } from '@productgen/contracts';
import type { BalanceChange } from '../data/ledger';
import { refundedImageOf } from '../domain/ledger';
import type { PaidCheckout } from '../payments/checkouts';

/** One id per (user, version): a republish after a crash is the same message to consumers. */
export function balanceChangedMessageId(userId: string, version: number): string {
  return `${topics.creditsBalanceChanged}:${userId}:${version}`;
}

export function balanceChangedPublisher(bus: MessageBus, now: () => Date) {
  return async (change: BalanceChange): Promise<void> => {
    const payload = parseMessage(topics.creditsBalanceChanged, {
      userId: change.userId,
      balance: change.balance,
      version: change.version,
      has_purchased: change.purchaser,
      at: now().toISOString(),
    });
    await bus.publish(topics.creditsBalanceChanged, payload, {
      messageId: balanceChangedMessageId(change.userId, change.version),
    });
  };
}

/**
 * What every applied ledger operation publishes (the ledger's outbox: the operation counts as published only once
 * this resolved, else `recover` calls it again): its balance change and, for a user's refund of an image, the
 * refund, so generation withdraws the image. Both messages have fixed ids, so a republish changes nothing.
 */
export function ledgerChangePublisher(bus: MessageBus, now: () => Date) {
  const publishBalance = balanceChangedPublisher(bus, now);
  return async (change: BalanceChange): Promise<void> => {
    await publishBalance(change);
    const refunded = change.operation.kind === 'user_refund' ? refundedImageOf(change.operation.key) : undefined;
    if (!refunded) return;
    const payload = parseMessage(topics.creditsImageRefunded, {
      userId: change.userId,
      generation_uuid: refunded.generationUuid,
      image_index: refunded.imageIndex,
      at: now().toISOString(),
    });
    await bus.publish(topics.creditsImageRefunded, payload, {
      messageId: `${topics.creditsImageRefunded}:${change.operation.key}`,
    });
  };
}

export function paymentCompletedPublisher(bus: MessageBus, now: () => Date) {
  return async (paid: PaidCheckout): Promise<void> => {
    const payload = parseMessage(topics.paymentCompleted, {
      userId: paid.userId,
      sessionId: paid.sessionId,
      packageId: paid.packageId,
      credits: paid.credits,
      amount_cents: paid.amountCents,
      currency: paid.currency,
      at: now().toISOString(),
    });
    await bus.publish(topics.paymentCompleted, payload, { messageId: `${topics.paymentCompleted}:${paid.sessionId}` });
  };
}
