import { randomUUID } from 'node:crypto';
import type { BulkJobCounts } from '@productgen/contracts';
import type { Model } from 'mongoose';
import type {
  CheckDocument,
  CheckOutcome,
  GenerationProgressDocument,
  JobDocument,
  JobStage,
  ProductDocument,
  ProductState,
} from './models';

export interface NewJob {
  uuid: string;
  userId: string;
  imagesPerProduct: number;
  presets: string[];
  checkUncertain: boolean;
  uploadKey: string;
  products: Array<Pick<ProductDocument, 'index' | 'entry_index' | 'name' | 'generation_uuid'>>;
}

/** One of generation's messages about a generation of the job: images made, and its outcome once settled. */
export interface GenerationEvent {
  jobUuid: string;
  userId: string;
  generationUuid: string;
  images: readonly number[];
  outcome: GenerationProgressDocument['outcome'];
}

export interface Progress {
  generationsDone: number;
  counts: BulkJobCounts;
  thumbnails: string[];
  /** Set when every product is done. */
  finished?: { stage: Extract<JobStage, 'completed' | 'failed'>; error: string | null; at: Date };
}

const ACTIVE_STAGES: JobStage[] = ['reserving', 'handing_over', 'tracking'];

const NO_LEASE = { lease_until: null, lease_holder: null };

/** Each claim has its own holder, so the one it replaced cannot act on the lease any longer. */
function newLease(leaseUntil: Date): Pick<JobDocument, 'lease_until' | 'lease_holder'> {
  return { lease_until: leaseUntil, lease_holder: randomUUID() };
}

/** The job while its hand-over is still the holder's. */
function heldBy(uuid: string, holder: string) {
  return { uuid, stage: 'handing_over' as const, lease_holder: holder };
}

/**
 * Batch jobs of the service's own database. Every change is one atomic update of one document, guarded by the
 * stage (or product state, or lease holder) it expects, so a resumed hand-over and a concurrent refresh cannot undo
 * each other.
 */
export class JobRepository {
  constructor(private readonly model: Model<JobDocument>) {}

  async create(job: NewJob): Promise<JobDocument> {
    const created = await this.model.create({
      uuid: job.uuid,
      user_id: job.userId,
      stage: 'reserving',
      images_per_product: job.imagesPerProduct,
      presets: job.presets,
      check_uncertain: job.checkUncertain,
      upload_key: job.uploadKey,
      products: job.products.map((product) => ({ ...product, state: 'waiting', error: null })),
      generations_total: job.products.length,
    });
    return created.toObject();
  }

  findByUuid(uuid: string): Promise<JobDocument | null> {
    return this.model.findOne({ uuid }).lean<JobDocument>().exec();
  }

  /** The job when it belongs to the user; another user's is as good as missing. */
  findOwned(uuid: string, userId: string): Promise<JobDocument | null> {
    return this.model.findOne({ uuid, user_id: userId }).lean<JobDocument>().exec();
  }

  /** Newest first; `stages` narrows the list. */
  listOwned(userId: string, stages?: readonly JobStage[], limit = 100): Promise<JobDocument[]> {
    const filter: Record<string, unknown> = { user_id: userId };
    if (stages) filter.stage = { $in: stages };
    return this.model.find(filter).sort({ created_at: -1 }).limit(limit).lean<JobDocument[]>().exec();
  }

  /** A refused reservation: the job never existed for the user. */
  async remove(uuid: string): Promise<void> {
    await this.model.deleteOne({ uuid, stage: 'reserving' }).exec();
  }

  /** Credits reserved: the products may be handed over, under a lease this call claims. */
  async markReserved(uuid: string, watermark: boolean, leaseUntil: Date): Promise<JobDocument | null> {
    return this.model
      .findOneAndUpdate(
        { uuid, stage: 'reserving' },
        { $set: { stage: 'handing_over', watermark, ...newLease(leaseUntil) } },
        { returnDocument: 'after' },
      )
      .lean<JobDocument>()
      .exec();
  }

  /** Takes the hand-over of a job whose lease lapsed (its process stopped); null when someone else holds it. */
  claimHandOver(uuid: string, now: Date, leaseUntil: Date): Promise<JobDocument | null> {
    return this.model
      .findOneAndUpdate(
        { uuid, stage: 'handing_over', $or: [{ lease_until: null }, { lease_until: { $lt: now } }] },
        { $set: newLease(leaseUntil) },
        { returnDocument: 'after' },
      )
      .lean<JobDocument>()
      .exec();
  }

  /** False when the lease is no longer the holder's: another process claimed it after it lapsed. */
  async renewLease(uuid: string, holder: string, leaseUntil: Date): Promise<boolean> {
    const result = await this.model.updateOne(heldBy(uuid, holder), { $set: { lease_until: leaseUntil } }).exec();
    return result.matchedCount === 1;
  }

  /** A hand-over that stopped on storage or generation trouble: the next sweep may resume it at once. */
  async releaseLease(uuid: string, holder: string): Promise<void> {
    await this.model.updateOne(heldBy(uuid, holder), { $set: NO_LEASE }).exec();
  }

  /**
   * Products are stored in their index order, so a product's index is its position in the array. A product held
   * for check records what analysis said of it.
   */
  async setProductState(
    uuid: string,
    index: number,
    state: ProductState,
    error: string | null,
    check: CheckDocument | null = null,
  ): Promise<void> {
    const set: Record<string, unknown> = { [`products.${index}.state`]: state, [`products.${index}.error`]: error };
    if (check) set[`products.${index}.check`] = check;
    await this.model
      .updateOne({ uuid, [`products.${index}.state`]: 'waiting' }, { $set: set, $inc: { progress_rev: 1 } })
      .exec();
  }

  /**
   * Takes a product waiting for check for one decision (one conditional update: of two concurrent decisions only
   * one gets it); null when it is not waiting.
   */
  claimCheck(uuid: string, userId: string, index: number, now: Date): Promise<JobDocument | null> {
    return this.model
      .findOneAndUpdate(
        { uuid, user_id: userId, [`products.${index}.state`]: 'needs_check' },
        { $set: { [`products.${index}.state`]: 'deciding', [`products.${index}.check.deciding_since`]: now } },
        { returnDocument: 'after' },
      )
      .lean<JobDocument>()
      .exec();
  }

  /** The decision went through: the product's new state and how it was let go. */
  async settleCheck(uuid: string, index: number, state: ProductState, outcome: CheckOutcome): Promise<void> {
    await this.model
      .updateOne(
        { uuid, [`products.${index}.state`]: 'deciding' },
        {
          $set: {
            [`products.${index}.state`]: state,
            [`products.${index}.check.outcome`]: outcome,
            [`products.${index}.check.deciding_since`]: null,
          },
          $inc: { progress_rev: 1 },
        },
      )
      .exec();
  }

  /** The decision failed (or its process stopped): the product waits for check again. */
  async reopenCheck(uuid: string, index: number): Promise<void> {
    await this.model
      .updateOne(
        { uuid, [`products.${index}.state`]: 'deciding' },
        { $set: { [`products.${index}.state`]: 'needs_check', [`products.${index}.check.deciding_since`]: null } },
      )
      .exec();
  }

  /**
   * A redo points the finished product at its new generation, in one update conditional on the product still being
   * at `from` after `redos` redos (of two concurrent redos one wins); the product is no longer done.
   */
  async switchGeneration(uuid: string, index: number, from: string, to: string, redos: number): Promise<boolean> {
    const product = `products.${index}`;
    const result = await this.model
      .updateOne(
        {
          uuid,
          [`${product}.state`]: 'handed',
          [`${product}.generation_uuid`]: from,
          [`${product}.redos`]: redos === 0 ? { $in: [0, null] } : redos,
        },
        {
          $set: { [`${product}.generation_uuid`]: to, [`${product}.redos`]: redos + 1 },
          $push: { [`${product}.replaced_generation_uuids`]: from },
          $inc: { generations_done: -1, progress_rev: 1 },
        },
      )
      .exec();
    return result.modifiedCount === 1;
  }

  /** A redo generation refused to start: the product is back on the generation it had. */
  async revertGeneration(uuid: string, index: number, from: string, to: string): Promise<void> {
    const product = `products.${index}`;
    await this.model
      .updateOne(
        { uuid, [`${product}.generation_uuid`]: from },
        {
          $set: { [`${product}.generation_uuid`]: to },
          $pull: { [`${product}.replaced_generation_uuids`]: to },
          $inc: { [`${product}.redos`]: -1, generations_done: 1, progress_rev: 1 },
        },
      )
      .exec();
  }

  /** A finished job with a product being made again is tracked again until that product is done. */
  async reopen(uuid: string): Promise<void> {
    await this.model
      .updateOne(
        { uuid, stage: { $in: ['completed', 'failed'] } },
        { $set: { stage: 'tracking', finished_at: null, error: null } },
      )
      .exec();
  }

  /**
   * Jobs with a product waiting for check since before `heldBefore`, or a decision stopped since before
   * `decidingBefore` (the sweeper renders the first as they are and reopens the second).
   */
  findOverdueChecks(heldBefore: Date, decidingBefore: Date, limit: number): Promise<JobDocument[]> {
    return this.model
      .find({
        stage: { $in: ['handing_over', 'tracking'] },
        $or: [
          { products: { $elemMatch: { state: 'needs_check', 'check.held_at': { $lt: heldBefore } } } },
          { products: { $elemMatch: { state: 'deciding', 'check.deciding_since': { $lt: decidingBefore } } } },
        ],
      })
      .limit(limit)
      .lean<JobDocument[]>()
      .exec();
  }

  /** Every product is with generation (or done): the upload is no longer needed. False when the lease was lost. */
  async markHandedOver(uuid: string, holder: string): Promise<boolean> {
    const result = await this.model
      .updateOne(heldBy(uuid, holder), { $set: { stage: 'tracking', upload_key: null, ...NO_LEASE } })
      .exec();
    return result.matchedCount === 1;
  }

  /** Jobs still reserving or handing over whose lease lapsed, oldest first (the sweeper resumes them). */
  findStalled(now: Date, limit: number): Promise<JobDocument[]> {
    return this.model
      .find({
        stage: { $in: ['reserving', 'handing_over'] },
        $or: [{ lease_until: null }, { lease_until: { $lt: now } }],
      })
      .sort({ created_at: 1 })
      .limit(limit)
      .lean<JobDocument[]>()
      .exec();
  }

  /** Jobs whose products are (partly) with generation and not finished. */
  findActive(limit: number): Promise<JobDocument[]> {
    return this.model
      .find({ stage: { $in: ['handing_over', 'tracking'] } })
      .sort({ updated_at: 1 })
      .limit(limit)
      .lean<JobDocument[]>()
      .exec();
  }

  /**
   * Records one of generation's messages on the job, whatever its order: images are added to a set and an outcome is
   * only ever set (a generation settles once), so a repeated or late message changes nothing. A message naming a job
   * that is not the user's is ignored. Answers whether the job exists for the user.
   */
  async recordGenerationEvent(event: GenerationEvent): Promise<boolean> {
    const path = `generation_progress.${event.generationUuid}`;
    const update: Record<string, unknown> = {
      $addToSet: { [`${path}.images`]: { $each: [...event.images] } },
      $inc: { progress_rev: 1 },
    };
    if (event.outcome) update.$set = { [`${path}.outcome`]: event.outcome };
    const result = await this.model.updateOne({ uuid: event.jobUuid, user_id: event.userId }, update).exec();
    return result.matchedCount === 1;
  }

  /**
   * Records progress computed from the job as read at `rev`: false (nothing written) when anything it is computed
   * from changed since, so the caller computes again from a fresh read. Progress only moves forward; the finish
   * happens once, and only after every product was handed over.
   */
  async recordProgress(uuid: string, rev: number, progress: Progress): Promise<boolean> {
    const result = await this.model
      .updateOne(
        {
          uuid,
          stage: { $in: ACTIVE_STAGES },
          progress_rev: rev === 0 ? { $in: [0, null] } : rev,
          generations_done: { $lte: progress.generationsDone },
        },
        {
          $set: {
            generations_done: progress.generationsDone,
            counts: progress.counts,
            thumbnails: progress.thumbnails,
          },
        },
      )
      .exec();
    if (result.matchedCount === 0) return false;
    if (progress.finished) {
      await this.model
        .updateOne(
          { uuid, stage: 'tracking', progress_rev: rev === 0 ? { $in: [0, null] } : rev },
          {
            $set: {
              stage: progress.finished.stage,
              error: progress.finished.error,
              finished_at: progress.finished.at,
            },
          },
        )
        .exec();
    }
    return true;
  }

  countAll(): Promise<number> {
    return this.model.countDocuments({}).exec();
  }
}
