import type { BusMessage, MessageBus, Subscription } from '@productgen/bus';
import { parseMessage, topics } from '@productgen/contracts';
import type { Logger } from '@productgen/service-kit';
import type { UserRepository } from '../data/user-repository';

/** Queues of the auth service (one per concern, so a slow one never holds up the other). */
export const authQueues = {
  creditsBalanceChanged: 'auth.credits-balance-changed',
  generationCompleted: 'auth.generation-completed',
} as const;

/**
 * Keeps user.credits equal to billing's balance. Idempotent by version: replays and messages overtaken by a
 * newer balance change nothing. A payload that breaks the contract is thrown, so it ends in the dead-letter queue.
 */
export function creditsBalanceHandler(users: UserRepository, logger: Logger) {
  return async (message: BusMessage): Promise<void> => {
    const change = parseMessage(topics.creditsBalanceChanged, message.payload);
    const applied = await users.applyBalance(change.userId, {
      balance: change.balance,
      version: change.version,
      hasPurchased: change.has_purchased,
    });
    logger.debug({ userId: change.userId, version: change.version, applied }, 'credit balance message handled');
  };
}

/** The first finished generation ends the simplified first-generation screen. */
export function generationCompletedHandler(users: UserRepository, logger: Logger) {
  return async (message: BusMessage): Promise<void> => {
    const completed = parseMessage(topics.generationCompleted, message.payload);
    const found = await users.markFirstGenerationDone(completed.userId);
    if (!found) logger.warn({ userId: completed.userId }, 'generation completed for an unknown user');
  };
}

export async function subscribeConsumers(
  bus: MessageBus,
  users: UserRepository,
  logger: Logger,
): Promise<Subscription[]> {
  const log = logger.child({ component: 'messaging' });
  return Promise.all([
    bus.subscribe(authQueues.creditsBalanceChanged, [topics.creditsBalanceChanged], creditsBalanceHandler(users, log)),
    bus.subscribe(authQueues.generationCompleted, [topics.generationCompleted], generationCompletedHandler(users, log)),
  ]);
}
