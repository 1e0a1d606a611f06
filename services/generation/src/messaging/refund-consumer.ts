import type { BusMessage, MessageBus, Subscription } from '@productgen/bus';
import { parseMessage, topics } from '@productgen/contracts';
import type { Logger } from '@productgen/service-kit';
import type { GenerationRepository } from '../data/generation-repository';

/** The queue of refunded images; every API and worker process consumes from it (competing consumers). */
export const refundQueue = 'generation.image-refunded';

/**
 * Withdraws an image once billing granted its user's refund, so it is no longer listed or downloadable (single
 * downloads, zips, batches' Download All). Idempotent by (generation_uuid, image_index): a redelivery finds it
 * withdrawn. A payload that breaks the contract is thrown, so it ends in the dead-letter queue.
 */
export function imageRefundedHandler(generations: GenerationRepository, logger: Logger, now: () => Date) {
  return async (message: BusMessage): Promise<void> => {
    const refund = parseMessage(topics.creditsImageRefunded, message.payload);
    const withdrawn = await generations.withdrawImage(refund.generation_uuid, refund.userId, refund.image_index, now());
    logger.info(
      { generation: refund.generation_uuid, image: refund.image_index, withdrawn },
      'refunded image withdrawn',
    );
  };
}

export function subscribeToRefunds(
  bus: MessageBus,
  generations: GenerationRepository,
  logger: Logger,
  now: () => Date,
): Promise<Subscription> {
  return bus.subscribe(refundQueue, [topics.creditsImageRefunded], imageRefundedHandler(generations, logger, now));
}
