import type { BusMessage, MessageBus, Subscription } from '@productgen/bus';
import { parseMessage, topics } from '@productgen/contracts';
import type { Logger } from '@productgen/service-kit';
import type { CreditService } from '../credits';

/** Queues of the billing service. */
export const billingQueues = {
  userSignedUp: 'billing.user-signed-up',
} as const;

/**
 * The signup bonus, once per user: the ledger operation signup:<userId> makes redeliveries and republished
 * messages no-ops. A payload that breaks the contract is thrown, so it ends in the dead-letter queue.
 */
export function userSignedUpHandler(credits: CreditService, logger: Logger) {
  return async (message: BusMessage): Promise<void> => {
    const signedUp = parseMessage(topics.userSignedUp, message.payload);
    await credits.grantSignupBonus(signedUp.userId);
    logger.debug({ userId: signedUp.userId }, 'signup bonus handled');
  };
}

export async function subscribeConsumers(
  bus: MessageBus,
  credits: CreditService,
  logger: Logger,
): Promise<Subscription[]> {
  const log = logger.child({ component: 'messaging' });
  return [await bus.subscribe(billingQueues.userSignedUp, [topics.userSignedUp], userSignedUpHandler(credits, log))];
}
