import type { MessageBus } from '@productgen/bus';
import { parseMessage, topics } from '@productgen/contracts';
import type { BalanceChange } from '../data/ledger';
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
