import type { MessageBus } from '@productgen/bus';
import { parseMessage, topics } from '@productgen/contracts';
import type { Logger, CrashPoint } from '@productgen/service-kit';
import type { BillingClient } from './clients/billing';
import type { CrashStep } from './config';
import type { GenerationRepository } from './data/generation-repository';
import type { GenerationDocument } from './data/schemas';
import { isSettled, NOTHING_CHARGED_MESSAGE, openImages, outcomeOf, owedGiveBacks } from './domain/sweep';

export interface SettlementDeps {
  generations: GenerationRepository;
  billing: BillingClient;
  bus: MessageBus;
  logger: Logger;
  now: () => Date;
  crashPoint: CrashPoint<CrashStep>;
  /** Wait before the sweeper tries again a give-back billing did not confirm. */
  giveBackRetryMs: number;
}

export type SettleResult = 'finished' | 'rendering';

/**
 * How a generation ends, for every path that ends one (the worker, the sweeper, the dead-letter drain): a failed
 * image's credit goes back through billing (once per image, keyed by billing), and the generation is finished only
 * when each image ended as an image or a confirmed give-back. Every step is idempotent, so a crash or a second
 * process repeating it changes nothing.
 */
export class Settlement {
  constructor(private readonly deps: SettlementDeps) {}

  /** The image failed: recorded first (so the give-back is owed even if this process stops), then given back. */
  async failImage(generation: GenerationDocument, index: number, reason: string): Promise<void> {
    this.deps.logger.warn({ generation: generation.uuid, index, reason }, 'image failed; giving its credit back');
    await this.deps.generations.setImageError(generation.uuid, index, reason);
    await this.giveBack(generation, index);
  }

  /** Gives back what is owed and, when nothing is left to render, records and announces the outcome. */
  async settle(uuid: string): Promise<SettleResult> {
    const generation = await this.deps.generations.findByUuid(uuid);
    if (!generation || generation.stage === 'completed' || generation.stage === 'failed') return 'finished';
    try {
      for (const index of owedGiveBacks(generation.images)) await this.giveBack(generation, index);
    } catch (error) {
      // Billing did not confirm: the give-back stays owed and the sweeper tries again.
      await this.deps.generations.retryGiveBacksAt(
        uuid,
        new Date(this.deps.now().getTime() + this.deps.giveBackRetryMs),
      );
      throw error;
    }
    const settled = await this.deps.generations.findByUuid(uuid);
    if (!settled || settled.stage === 'completed' || settled.stage === 'failed') return 'finished';
    if (!isSettled(settled.images)) return 'rendering';
    await this.finish(settled);
    return 'finished';
  }

  /** Stops waiting for the images not made yet: they fail, their credits go back, the generation is finished. */
  async giveUp(uuid: string, reason: string): Promise<SettleResult> {
    const generation = await this.deps.generations.findByUuid(uuid);
    if (!generation || generation.stage === 'completed' || generation.stage === 'failed') return 'finished';
    this.deps.logger.error({ generation: uuid, reason }, 'render job given up; giving the credits back');
    for (const index of openImages(generation.images)) {
      await this.deps.generations.setImageError(uuid, index, reason);
    }
    return this.settle(uuid);
  }

  /** A creation that stopped before billing took anything: failed with nothing charged (announced for bulk). */
  async failUncharged(generation: GenerationDocument): Promise<void> {
    await this.announceFailed(generation, NOTHING_CHARGED_MESSAGE);
    await this.deps.generations.failReservation(generation.uuid, NOTHING_CHARGED_MESSAGE, this.deps.now());
  }

  private async giveBack(generation: GenerationDocument, index: number): Promise<void> {
    this.deps.crashPoint('before-give-back');
    await this.deps.billing.giveBack({
      userId: generation.user_id,
      generationUuid: generation.uuid,
      imageIndex: index,
      reason: 'failed',
    });
    await this.deps.generations.markRefunded(generation.uuid, index);
  }

  /** Announces the outcome before recording it, so a crash in between only repeats the same message. */
  private async finish(generation: GenerationDocument): Promise<void> {
    const outcome = outcomeOf(generation.images);
    const at = this.deps.now();
    const finished = generation.images.filter((image) => image.final_key !== null);
    const failedCount = generation.images.length - finished.length;
    if (outcome.stage === 'completed') {
      const payload = parseMessage(topics.generationCompleted, {
        userId: generation.user_id,
        generation_uuid: generation.uuid,
        images_completed: finished.length,
        images_failed: failedCount,
        thumbnail_object_key: finished[0]!.final_key,
        image_indexes: finished.map((image) => image.index),
        bulk_job_uuid: generation.bulk_job_uuid,
        at: at.toISOString(),
      });
      await this.deps.bus.publish(topics.generationCompleted, payload, {
        messageId: `${topics.generationCompleted}:${generation.uuid}`,
      });
    } else {
      await this.announceFailed(generation, outcome.error);
    }
    await this.deps.generations.finish(generation.uuid, outcome.stage, outcome.error, at);
  }

  private async announceFailed(generation: GenerationDocument, error: string): Promise<void> {
    const payload = parseMessage(topics.generationFailed, {
      userId: generation.user_id,
      generation_uuid: generation.uuid,
      error,
      bulk_job_uuid: generation.bulk_job_uuid,
      at: this.deps.now().toISOString(),
    });
    await this.deps.bus.publish(topics.generationFailed, payload, {
      messageId: `${topics.generationFailed}:${generation.uuid}`,
    });
  }
}
