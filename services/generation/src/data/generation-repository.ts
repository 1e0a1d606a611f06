import type { CategoryId } from '@productgen/contracts';
import { isDuplicateKeyError } from '@productgen/service-kit';
import type { Model } from 'mongoose';
import type { CutoutDocument, GenerationDocument, GenerationStage, ImageDocument, VariationDocument } from './schemas';

export interface NewAnalyzedGeneration {
  uuid: string;
  userId: string;
  category: CategoryId;
  object: string;
  originalKey: string;
  originalContentType: string;
  originalFilename: string | null;
  cutout: CutoutDocument | null;
  /** When the photo is removed unless Create claimed it by then. */
  expiresAt: Date;
}

/** What the seller may correct on an analysed photo before creating from it. */
export interface AnalysisCorrections {
  category?: CategoryId;
  object?: string;
  cutout?: CutoutDocument;
}

/** What a creation fixes before it reserves the credits, so a sweeper can finish it if its process stops. */
export interface CreationPlan {
  variations: VariationDocument[];
  brandColors: string[];
  bulkJobUuid: string | null;
  /** When the sweeper may ask billing what became of the reservation. */
  sweepAfter: Date;
}

/** What every batch product's record starts with. */
interface BatchProductBase {
  uuid: string;
  userId: string;
  bulkJobUuid: string;
  category: CategoryId;
  object: string;
  originalKey: string;
  originalContentType: string;
  originalFilename: string;
  cutout: CutoutDocument | null;
  watermark: boolean;
  brandColors: string[];
}

export interface NewBatchGeneration extends BatchProductBase {
  variations: VariationDocument[];
  now: Date;
  /** When the sweeper publishes the job if the broker has not confirmed it by then (the outbox). */
  sweepAfter: Date;
}

export interface NewHeldBatchGeneration extends BatchProductBase {
  /** Credits bulk reserved for it. */
  reserved: number;
  /** The batch's style preset ids. */
  presets: string[];
  reasons: string[];
}

/** The fields of a batch product queued for rendering: its variations, one empty image each, started now. */
function queuedFields(variations: VariationDocument[], watermark: boolean, now: Date, sweepAfter: Date) {
  return {
    num_images: variations.length,
    variations,
    images: variations.map((variation) => emptyImage(variation.index, watermark)),
    started_at: now,
    sweep_after: sweepAfter,
  };
}

export interface QueuedDetails {
  watermark: boolean;
  now: Date;
  /** When the sweeper publishes the job if the broker has not confirmed it by then (the outbox). */
  sweepAfter: Date;
}

/** Stages of a generation whose credits are taken and whose images are not all settled yet. */
const liveStages: GenerationStage[] = ['pending', 'processing'];

/** No fix is needed for a purchaser's watermark: that flag starts done. */
export function emptyImage(index: number, watermark: boolean): ImageDocument {
  return {
    index,
    base_key: null,
    final_key: null,
    fixes_done: [false, false, !watermark],
    error: null,
    refunded: false,
    withdrawn_at: null,
  };
}

/**
 * Generations of the service's own database. Every change is a single-document atomic update guarded by the
 * stage it expects, so concurrent requests and redelivered jobs cannot step on each other.
 */
export class GenerationRepository {
  constructor(private readonly model: Model<GenerationDocument>) {}

  async createAnalyzed(input: NewAnalyzedGeneration): Promise<GenerationDocument> {
    const created = await this.model.create({
      uuid: input.uuid,
      user_id: input.userId,
      stage: 'analyzed',
      category: input.category,
      object: input.object,
      original_key: input.originalKey,
      original_content_type: input.originalContentType,
      original_filename: input.originalFilename,
      cutout: input.cutout,
      expires_at: input.expiresAt,
    });
    return created.toObject();
  }

  /**
   * The seller's corrections, only while the photo is analysed and not yet created from (one conditional update,
   * so a correction racing a Create either lands before the claim or not at all); null otherwise.
   */
  correctAnalysed(uuid: string, userId: string, corrections: AnalysisCorrections): Promise<GenerationDocument | null> {
    return this.model
      .findOneAndUpdate(
        { uuid, user_id: userId, stage: 'analyzed' },
        { $set: definedOnly(corrections) },
        { returnDocument: 'after' },
      )
      .lean<GenerationDocument>()
      .exec();
  }

  /**
   * The seller's corrected mask, only while the photo is uncreated and its cut-out is still `previousKey` (the one
   * the correction read): so the previous object is unreferenced once this succeeds, and of two concurrent saves
   * only one replaces it. Null otherwise.
   */
  replaceCutout(
    uuid: string,
    userId: string,
    previousKey: string,
    cutout: CutoutDocument,
  ): Promise<GenerationDocument | null> {
    return this.model
      .findOneAndUpdate(
        { uuid, user_id: userId, stage: 'analyzed', 'cutout.key': previousKey },
        { $set: { cutout } },
        { returnDocument: 'after' },
      )
      .lean<GenerationDocument>()
      .exec();
  }

  findByUuid(uuid: string): Promise<GenerationDocument | null> {
    return this.model.findOne({ uuid }).lean<GenerationDocument>().exec();
  }

  /** The generation while its render job is live (queued or rendering); null once finished, or before. */
  findLive(uuid: string): Promise<GenerationDocument | null> {
    return this.model
      .findOne({ uuid, stage: { $in: liveStages } })
      .lean<GenerationDocument>()
      .exec();
  }

  /** The generation when it belongs to the user; another user's is as good as missing. */
  findOwned(uuid: string, userId: string): Promise<GenerationDocument | null> {
    return this.model.findOne({ uuid, user_id: userId }).lean<GenerationDocument>().exec();
  }

  /**
   * Takes an analysed generation for creating, with its plan (one request wins), and so keeps it for good; null
   * when it was already used or has expired (the sweeper may be removing its files).
   */
  claimForCreation(uuid: string, userId: string, plan: CreationPlan, now: Date): Promise<GenerationDocument | null> {
    return this.model
      .findOneAndUpdate(
        { uuid, user_id: userId, stage: 'analyzed', $or: [{ expires_at: null }, { expires_at: { $gt: now } }] },
        { $set: { stage: 'reserving', expires_at: null, ...planFields(plan) } },
        { returnDocument: 'after' },
      )
      .lean<GenerationDocument>()
      .exec();
  }

  /** A new generation from an already used photo (creating again from the same upload). */
  async cloneForCreation(source: GenerationDocument, uuid: string, plan: CreationPlan): Promise<GenerationDocument> {
    const created = await this.model.create({
      uuid,
      user_id: source.user_id,
      stage: 'reserving',
      category: source.category,
      object: source.object,
      original_key: source.original_key,
      original_content_type: source.original_content_type,
      original_filename: source.original_filename,
      cutout: source.cutout,
      ...planFields(plan),
    });
    return created.toObject();
  }

  /** Analysed photos past their expiry, oldest first. */
  findExpiredAnalysed(now: Date, limit: number): Promise<GenerationDocument[]> {
    return this.model
      .find({ stage: 'analyzed', expires_at: { $lte: now } })
      .sort({ expires_at: 1 })
      .limit(limit)
      .lean<GenerationDocument[]>()
      .exec();
  }

  /** Removes an analysed photo's record (expired); the record as it was, or null when it was gone or claimed. */
  removeAnalysed(uuid: string): Promise<GenerationDocument | null> {
    return this.model.findOneAndDelete({ uuid, stage: 'analyzed' }).lean<GenerationDocument>().exec();
  }

  /** Billing refused the reservation (nothing was taken): the photo can be used again until `expiresAt`. */
  async releaseClaim(uuid: string, expiresAt: Date): Promise<void> {
    await this.model
      .updateOne(
        { uuid, stage: 'reserving' },
        { $set: { stage: 'analyzed', sweep_after: null, expires_at: expiresAt } },
      )
      .exec();
  }

  /** Credits reserved: the images are laid out and the job is about to be queued. */
  async markQueued(generation: GenerationDocument, details: QueuedDetails): Promise<GenerationDocument | null> {
    return this.model
      .findOneAndUpdate(
        { uuid: generation.uuid, stage: 'reserving' },
        {
          $set: {
            stage: 'pending',
            images: generation.variations.map((variation) => emptyImage(variation.index, details.watermark)),
            watermark: details.watermark,
            started_at: details.now,
            sweep_after: details.sweepAfter,
          },
        },
        { returnDocument: 'after' },
      )
      .lean<GenerationDocument>()
      .exec();
  }

  /** The creation stopped before billing took anything: failed, nothing charged, nothing left to sweep. */
  async failReservation(uuid: string, error: string, now: Date): Promise<boolean> {
    const result = await this.model
      .updateOne(
        { uuid, stage: 'reserving' },
        { $set: { stage: 'failed', error, finished_at: now, sweep_after: null } },
      )
      .exec();
    return result.modifiedCount === 1;
  }

  /**
   * The broker confirmed the render job (again, after a re-queue): the job's first confirmation is kept, and the
   * generation may now go `sweepAfter` without progress before the sweeper steps in.
   */
  async markJobPublished(uuid: string, now: Date, sweepAfter: Date): Promise<void> {
    const live = { uuid, stage: { $in: liveStages } };
    await this.model.updateOne(live, { $set: { sweep_after: sweepAfter } }).exec();
    await this.model.updateOne({ ...live, job_published_at: null }, { $set: { job_published_at: now } }).exec();
  }

  /**
   * Takes the generation in one of `stages` that has waited longest past its `sweep_after`, leasing it to this
   * sweeper until `leaseUntil` (one conditional update: two sweepers never take the same one). A sweeper that dies
   * holding it lets the lease run out, and the next one takes it again.
   */
  claimForSweep(stages: readonly GenerationStage[], now: Date, leaseUntil: Date): Promise<GenerationDocument | null> {
    return this.model
      .findOneAndUpdate(
        // No sweep_after at all: a generation recorded before the sweeper existed, due at once.
        { stage: { $in: stages }, $or: [{ sweep_after: null }, { sweep_after: { $lte: now } }] },
        { $set: { sweep_after: leaseUntil } },
        { sort: { sweep_after: 1 }, returnDocument: 'after' },
      )
      .lean<GenerationDocument>()
      .exec();
  }

  /** The sweeper queued the job again. */
  async countRequeue(uuid: string): Promise<void> {
    await this.model.updateOne({ uuid }, { $inc: { requeues: 1 } }).exec();
  }

  /** A worker took the job; `sweepAfter` is how long it may go without progress before the sweeper steps in. */
  async markProcessing(uuid: string, sweepAfter: Date): Promise<void> {
    await this.model
      .updateOne({ uuid, stage: { $in: liveStages } }, { $set: { stage: 'processing', sweep_after: sweepAfter } })
      .exec();
  }

  /** The base image is stored; `watermarked` when it carries the generation's watermark. */
  async setBase(uuid: string, index: number, key: string, watermarked: boolean, sweepAfter: Date): Promise<void> {
    await this.model
      .updateOne(
        { uuid },
        {
          $set: {
            [`images.${index}.base_key`]: key,
            [`images.${index}.base_watermarked`]: watermarked,
            sweep_after: sweepAfter,
          },
        },
      )
      .exec();
  }

  /** An image given up meanwhile stays given up (its credit is back); the finished object is then unused. */
  async setFinal(uuid: string, index: number, key: string, sweepAfter: Date): Promise<void> {
    await this.model
      .updateOne(
        { uuid, [`images.${index}.error`]: null },
        {
          $set: {
            [`images.${index}.final_key`]: key,
            [`images.${index}.fixes_done`]: [true, true, true],
            sweep_after: sweepAfter,
          },
        },
      )
      .exec();
  }

  /** The image failed; its credit is owed until `markRefunded`. Not for an image already made. */
  async setImageError(uuid: string, index: number, message: string): Promise<void> {
    await this.model
      .updateOne(
        { uuid, [`images.${index}.final_key`]: null, [`images.${index}.error`]: null },
        { $set: { [`images.${index}.error`]: message } },
      )
      .exec();
  }

  /** Billing confirmed the image's credit given back. */
  async markRefunded(uuid: string, index: number): Promise<void> {
    await this.model.updateOne({ uuid }, { $set: { [`images.${index}.refunded`]: true } }).exec();
  }

  /** The user's refund of the image was granted: withdrawn for good (the first time counts); false when unknown. */
  async withdrawImage(uuid: string, userId: string, index: number, at: Date): Promise<boolean> {
    const result = await this.model
      .updateOne(
        { uuid, user_id: userId, [`images.${index}`]: { $exists: true }, [`images.${index}.withdrawn_at`]: null },
        { $set: { [`images.${index}.withdrawn_at`]: at } },
      )
      .exec();
    return result.modifiedCount === 1;
  }

  /** Owed give-backs not confirmed yet: the sweeper tries again once `retryAt` has passed. */
  async retryGiveBacksAt(uuid: string, retryAt: Date): Promise<void> {
    await this.model.updateOne({ uuid, stage: { $in: liveStages } }, { $set: { sweep_after: retryAt } }).exec();
  }

  /** Records the outcome once every image ended as an image or a confirmed give-back; false when already done. */
  async finish(
    uuid: string,
    stage: Extract<GenerationStage, 'completed' | 'failed'>,
    error: string | null,
    now: Date,
  ): Promise<boolean> {
    const result = await this.model
      .updateOne({ uuid, stage: { $in: liveStages } }, { $set: { stage, error, finished_at: now, sweep_after: null } })
      .exec();
    return result.modifiedCount === 1;
  }

  /** Generations the user created (not photos only analysed), newest first. */
  async listStarted(userId: string, page: number, pageSize: number) {
    const filter = { user_id: userId, started_at: { $ne: null } };
    const [items, total] = await Promise.all([
      this.model
        .find(filter)
        .sort({ created_at: -1 })
        .skip((page - 1) * pageSize)
        .limit(pageSize)
        .lean<GenerationDocument[]>()
        .exec(),
      this.model.countDocuments(filter).exec(),
    ]);
    return { items, total };
  }

  /** Every started generation of the user, newest first (the records list groups batch ones). */
  listAllStarted(userId: string): Promise<GenerationDocument[]> {
    return this.model
      .find({ user_id: userId, started_at: { $ne: null } })
      .sort({ created_at: -1 })
      .limit(1000)
      .lean<GenerationDocument[]>()
      .exec();
  }

  /**
   * A batch product, queued at once on credits bulk reserved: one insert of the whole record (never `reserving`,
   * since no reservation of its own exists). A second insert of the same uuid answers the first record.
   */
  createQueuedForBatch(input: NewBatchGeneration): Promise<GenerationDocument> {
    return this.insertBatchProduct(input, {
      stage: 'pending',
      ...queuedFields(input.variations, input.watermark, input.now, input.sweepAfter),
    });
  }

  /**
   * A batch product analysis was unsure of, held for the seller's check: the credits bulk reserved (`reserved`)
   * stay; variations are planned when it is released, with the category the seller confirmed.
   */
  createHeldForBatch(input: NewHeldBatchGeneration): Promise<GenerationDocument> {
    return this.insertBatchProduct(input, {
      stage: 'held',
      num_images: input.reserved,
      batch_presets: input.presets,
      check_reasons: input.reasons,
    });
  }

  private async insertBatchProduct(
    input: BatchProductBase,
    fields: Partial<GenerationDocument>,
  ): Promise<GenerationDocument> {
    try {
      const created = await this.model.create({
        uuid: input.uuid,
        user_id: input.userId,
        category: input.category,
        object: input.object,
        original_key: input.originalKey,
        original_content_type: input.originalContentType,
        original_filename: input.originalFilename,
        cutout: input.cutout,
        watermark: input.watermark,
        brand_colors: input.brandColors,
        bulk_job_uuid: input.bulkJobUuid,
        ...fields,
      });
      return created.toObject();
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      const existing = await this.findByUuid(input.uuid);
      if (!existing) throw error;
      return existing;
    }
  }

  /**
   * A held batch product renders: queued with its variations and the seller's corrections, in one conditional update
   * from `held`, so of two concurrent releases exactly one wins; null for the other (or when not held).
   */
  releaseHeld(
    uuid: string,
    userId: string,
    release: AnalysisCorrections & { variations: VariationDocument[]; watermark: boolean; now: Date; sweepAfter: Date },
  ): Promise<GenerationDocument | null> {
    return this.model
      .findOneAndUpdate(
        { uuid, user_id: userId, stage: 'held' },
        {
          $set: {
            ...definedOnly({ category: release.category, object: release.object, cutout: release.cutout }),
            stage: 'pending',
            ...queuedFields(release.variations, release.watermark, release.now, release.sweepAfter),
          },
        },
        { returnDocument: 'after' },
      )
      .lean<GenerationDocument>()
      .exec();
  }

  /** A held batch product the seller removed (or nothing fits it any more): failed with `error`, never rendered. */
  dropHeld(uuid: string, userId: string, error: string, now: Date): Promise<GenerationDocument | null> {
    return this.model
      .findOneAndUpdate(
        { uuid, user_id: userId, stage: 'held' },
        { $set: { stage: 'failed', error, finished_at: now } },
        { returnDocument: 'after' },
      )
      .lean<GenerationDocument>()
      .exec();
  }

  /** A batch's generations of the user, oldest first. */
  listByBulkJob(userId: string, bulkJobUuid: string): Promise<GenerationDocument[]> {
    return this.model
      .find({ user_id: userId, bulk_job_uuid: bulkJobUuid })
      .sort({ created_at: 1 })
      .limit(1000)
      .lean<GenerationDocument[]>()
      .exec();
  }

  countAll(): Promise<number> {
    return this.model.countDocuments({}).exec();
  }
}

function planFields(plan: CreationPlan) {
  return {
    num_images: plan.variations.length,
    variations: plan.variations,
    brand_colors: plan.brandColors,
    bulk_job_uuid: plan.bulkJobUuid,
    sweep_after: plan.sweepAfter,
  };
}

/** An update of only the fields given (an absent correction leaves its field as it is). */
function definedOnly<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}
