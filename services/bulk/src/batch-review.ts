import { randomUUID } from 'node:crypto';
import {
  fillPath,
  routePaths,
  type BulkCheckAnswer,
  type BulkCheckDecision,
  type BulkChecks,
  type BulkRedoAnswer,
  type BulkRedoRequest,
  type CategoryId,
} from '@productgen/contracts';
import { AppError, type Logger } from '@productgen/service-kit';
import type { BillingClient } from './clients/billing';
import type { GenerationClient } from './clients/generation';
import type { JobRepository } from './data/job-repository';
import type { CheckOutcome, JobDocument, ProductDocument } from './data/models';
import { isRedoFree, progressOf } from './domain/job';
import type { ProgressTracker } from './progress';

export const JOB_NOT_FOUND_MESSAGE = 'Job not found.';
export const PRODUCT_NOT_FOUND_MESSAGE = 'This batch has no such product.';
export const NOT_WAITING_MESSAGE = 'This product is no longer waiting for your check.';
export const NOT_FINISHED_MESSAGE = 'This product is still being made. Redo it once its images are ready.';
export const CONCURRENT_REDO_MESSAGE = 'This product is already being made again.';
export const NO_PRESET_FITS_MESSAGE =
  "None of the batch's style presets was made for this category, so it was not made again and its credits were given back.";

/** Products nobody checked render as they are after this long: nothing waits forever. */
export const UNCHECKED_RENDER_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

export interface BatchReviewDeps {
  jobs: JobRepository;
  billing: BillingClient;
  generation: GenerationClient;
  progress: ProgressTracker;
  logger: Logger;
  now: () => Date;
  /** A decision whose process stopped before it was recorded is reopened after this long. */
  decisionLeaseMs: number;
}

const isConflict = (error: unknown) => error instanceof AppError && error.status === 409;

/**
 * The seller's check of the products generation held because analysis was unsure of them: list them, let one
 * render (as it is, or fixed with the brush's mask, a name, a category) or remove it (its credits back at once).
 * Each decision first takes the product (needs_check → deciding, one conditional update), so of two concurrent
 * decisions only one reaches generation; generation's own release is conditional too. A decision that fails
 * (a bad mask, generation down) puts the product back to wait.
 */
export class BatchReview {
  constructor(private readonly deps: BatchReviewDeps) {}

  async list(jobUuid: string, userId: string): Promise<BulkChecks> {
    const job = await this.ownedJob(jobUuid, userId);
    return {
      products: job.products
        .filter((product) => product.state === 'needs_check' && product.check)
        .map((product) => ({
          index: product.index,
          generation_uuid: product.generation_uuid,
          filename: product.name,
          object: product.check!.object,
          category: product.check!.category as CategoryId | null,
          reasons: product.check!.reasons as BulkChecks['products'][number]['reasons'],
          original_image_url: fillPath(routePaths.downloadImage.path, { id: product.generation_uuid, index: -1 }),
          render_after: new Date(product.check!.held_at.getTime() + UNCHECKED_RENDER_AFTER_MS).toISOString(),
        })),
    };
  }

  /** "Looks right", "Render anyway" or a fix: the product renders with the batch's options. */
  decide(jobUuid: string, userId: string, index: number, decision: BulkCheckDecision): Promise<BulkCheckAnswer> {
    return this.release(jobUuid, userId, index, decision, decision.action);
  }

  private release(
    jobUuid: string,
    userId: string,
    index: number,
    decision: BulkCheckDecision,
    outcome: CheckOutcome,
  ): Promise<BulkCheckAnswer> {
    return this.withClaim(jobUuid, userId, index, outcome, async (job, product) => {
      const released = await this.deps.generation.api.releaseHeldBulkGeneration({
        params: { generationUuid: product.generation_uuid },
        body: { userId: job.user_id, mask: decision.mask, object: decision.object, category: decision.category },
      });
      return released.outcome === 'queued'
        ? { state: 'handed', answer: 'rendering', creditsReturned: released.credits_returned }
        : { state: 'skipped', answer: 'skipped', creditsReturned: released.credits_returned };
    });
  }

  /** The seller removes the product from the batch: never rendered, its credits back at once. */
  remove(jobUuid: string, userId: string, index: number): Promise<BulkCheckAnswer> {
    return this.withClaim(jobUuid, userId, index, 'removed', async (job, product) => {
      const dropped = await this.deps.generation.api.dropHeldBulkGeneration({
        params: { generationUuid: product.generation_uuid },
        body: { userId: job.user_id },
      });
      return { state: 'removed', answer: 'removed', creditsReturned: dropped.credits_returned };
    });
  }

  /**
   * A finished product made again, corrected or not, as a new generation whose images replace the old ones in the
   * job and Download All. The first redo of a product, and any redo of a product the machine flagged for check, is
   * free; a further one costs as a creation (reserved in billing first: 402 when the balance is short). A redo that
   * does not start (a bad mask, generation down, no preset fits the new category) puts the product back on its old
   * generation and gives any credits it took back.
   */
  async redo(jobUuid: string, userId: string, index: number, request: BulkRedoRequest): Promise<BulkRedoAnswer> {
    const { jobs, billing, generation } = this.deps;
    const job = await this.ownedJob(jobUuid, userId);
    const product = job.products[index];
    if (!product) throw AppError.notFound(PRODUCT_NOT_FOUND_MESSAGE);
    const finished = progressOf(job, product)?.outcome != null;
    if (product.state !== 'handed' || !finished) throw AppError.conflict(NOT_FINISHED_MESSAGE);

    const redos = product.redos ?? 0;
    const free = isRedoFree(product);
    const count = job.images_per_product;
    const newUuid = randomUUID();
    let watermark = job.watermark;
    if (!free) {
      const reservation = await billing.reserveCredits({
        body: { userId, generationUuid: newUuid, count, description: `Batch redo (${count} images)` },
      });
      watermark = reservation.watermark;
    }
    const charged = free ? 0 : count;
    const giveBackCharged = () => this.giveBack(userId, newUuid, charged);
    if (!(await jobs.switchGeneration(jobUuid, index, product.generation_uuid, newUuid, redos))) {
      await giveBackCharged();
      throw AppError.conflict(CONCURRENT_REDO_MESSAGE);
    }
    let outcome: 'queued' | 'skipped';
    try {
      ({ outcome } = await generation.api.redoBulkGeneration({
        params: { generationUuid: product.generation_uuid },
        body: {
          userId,
          new_generation_uuid: newUuid,
          count,
          presets: job.presets,
          watermark,
          mask: request.mask,
          object: request.object,
          category: request.category,
        },
      }));
    } catch (error) {
      await jobs.revertGeneration(jobUuid, index, newUuid, product.generation_uuid);
      await giveBackCharged();
      throw error;
    }
    if (outcome === 'skipped') {
      // Generation gave the credits back already.
      await jobs.revertGeneration(jobUuid, index, newUuid, product.generation_uuid);
      throw AppError.conflict(NO_PRESET_FITS_MESSAGE);
    }
    await jobs.reopen(jobUuid);
    this.deps.logger.info({ job: jobUuid, product: index, free }, 'batch product redone');
    await this.deps.progress.refreshByUuid(jobUuid);
    return { index, generation_uuid: newUuid, credits_charged: charged };
  }

  /** Gives back the first `count` credits reserved under a generation (give-backs are once per image in billing). */
  private async giveBack(userId: string, generationUuid: string, count: number): Promise<void> {
    for (let imageIndex = 0; imageIndex < count; imageIndex += 1) {
      await this.deps.billing.giveBackCredit({ body: { userId, generationUuid, imageIndex, reason: 'failed' } });
    }
  }

  /**
   * Sweeper: products unchecked for UNCHECKED_RENDER_AFTER_MS render as they are; decisions whose process stopped
   * are reopened. One product's trouble is logged and left for the next sweep.
   */
  async sweepOverdue(): Promise<void> {
    const now = this.deps.now();
    const heldBefore = new Date(now.getTime() - UNCHECKED_RENDER_AFTER_MS);
    const decidingBefore = new Date(now.getTime() - this.deps.decisionLeaseMs);
    for (const job of await this.deps.jobs.findOverdueChecks(heldBefore, decidingBefore, 20)) {
      for (const product of job.products) {
        if (
          product.state === 'deciding' &&
          product.check?.deciding_since &&
          product.check.deciding_since < decidingBefore
        ) {
          await this.deps.jobs.reopenCheck(job.uuid, product.index);
          continue;
        }
        if (product.state !== 'needs_check' || !product.check || product.check.held_at >= heldBefore) continue;
        try {
          await this.release(job.uuid, job.user_id, product.index, { action: 'render_anyway' }, 'unchecked');
        } catch (error) {
          this.deps.logger.warn(
            { err: error, job: job.uuid, product: product.index },
            'unchecked product not released',
          );
        }
      }
    }
  }

  private async withClaim(
    jobUuid: string,
    userId: string,
    index: number,
    outcome: CheckOutcome,
    send: (
      job: JobDocument,
      product: ProductDocument,
    ) => Promise<{
      state: 'handed' | 'skipped' | 'removed';
      answer: BulkCheckAnswer['state'];
      creditsReturned: number;
    }>,
  ): Promise<BulkCheckAnswer> {
    const { jobs } = this.deps;
    const job = await this.ownedJob(jobUuid, userId);
    if (!job.products[index]) throw AppError.notFound(PRODUCT_NOT_FOUND_MESSAGE);
    const claimed = await jobs.claimCheck(jobUuid, userId, index, this.deps.now());
    if (!claimed) throw AppError.conflict(NOT_WAITING_MESSAGE);
    const product = claimed.products[index]!;
    let sent: Awaited<ReturnType<typeof send>>;
    try {
      sent = await send(claimed, product);
    } catch (error) {
      // Generation has it already (an earlier decision whose answer was lost): it is on its way, not waiting.
      if (isConflict(error)) await jobs.settleCheck(jobUuid, index, 'handed', outcome);
      else await jobs.reopenCheck(jobUuid, index);
      throw error;
    }
    await jobs.settleCheck(jobUuid, index, sent.state, outcome);
    this.deps.logger.info({ job: jobUuid, product: index, outcome }, 'batch product checked');
    await this.deps.progress.refreshByUuid(jobUuid);
    return { index, state: sent.answer, credits_returned: sent.creditsReturned };
  }

  private async ownedJob(uuid: string, userId: string): Promise<JobDocument> {
    const job = await this.deps.jobs.findOwned(uuid, userId);
    if (!job) throw AppError.notFound(JOB_NOT_FOUND_MESSAGE);
    return job;
  }
}
