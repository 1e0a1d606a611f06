import type { Model } from 'mongoose';
import type { GenerationDocument, GenerationStage, ImageDocument, VariationDocument } from './models';

export interface NewAnalyzedGeneration {
  uuid: string;
  userId: string;
  category: string;
  object: string;
  originalKey: string;
  originalContentType: string;
  originalFilename: string | null;
}

export interface QueuedDetails {
  variations: VariationDocument[];
  watermark: boolean;
  brandColors: string[];
  now: Date;
}

/** No fix is needed for a purchaser's watermark: that flag starts done. */
export function emptyImage(index: number, watermark: boolean): ImageDocument {
  return {
    index,
    base_key: null,
    final_key: null,
    fixes_done: [false, false, !watermark],
    error: null,
    refunded: false,
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
    });
    return created.toObject();
  }

  findByUuid(uuid: string): Promise<GenerationDocument | null> {
    return this.model.findOne({ uuid }).lean<GenerationDocument>().exec();
  }

  /** The generation when it belongs to the user; another user's is as good as missing. */
  findOwned(uuid: string, userId: string): Promise<GenerationDocument | null> {
    return this.model.findOne({ uuid, user_id: userId }).lean<GenerationDocument>().exec();
  }

  /** Takes an analysed generation for creating (one request wins); null when it was already used. */
  claimForCreation(uuid: string, userId: string): Promise<GenerationDocument | null> {
    return this.model
      .findOneAndUpdate(
        { uuid, user_id: userId, stage: 'analyzed' },
        { $set: { stage: 'reserving' } },
        { returnDocument: 'after' },
      )
      .lean<GenerationDocument>()
      .exec();
  }

  /** A new generation from an already used photo (creating again from the same upload). */
  async cloneForCreation(source: GenerationDocument, uuid: string): Promise<GenerationDocument> {
    const created = await this.model.create({
      uuid,
      user_id: source.user_id,
      stage: 'reserving',
      category: source.category,
      object: source.object,
      original_key: source.original_key,
      original_content_type: source.original_content_type,
      original_filename: source.original_filename,
    });
    return created.toObject();
  }

  /** Reservation refused or failed: the photo can be used again. */
  async releaseClaim(uuid: string): Promise<void> {
    await this.model.updateOne({ uuid, stage: 'reserving' }, { $set: { stage: 'analyzed' } }).exec();
  }

  /** Credits reserved: the variations and images are fixed and the job is about to be queued. */
  async markQueued(uuid: string, details: QueuedDetails): Promise<GenerationDocument | null> {
    return this.model
      .findOneAndUpdate(
        { uuid, stage: 'reserving' },
        {
          $set: {
            stage: 'pending',
            num_images: details.variations.length,
            variations: details.variations,
            images: details.variations.map((variation) => emptyImage(variation.index, details.watermark)),
            watermark: details.watermark,
            brand_colors: details.brandColors,
            started_at: details.now,
          },
        },
        { returnDocument: 'after' },
      )
      .lean<GenerationDocument>()
      .exec();
  }

  /** The broker confirmed the render job of this generation. */
  async markJobPublished(uuid: string, now: Date): Promise<void> {
    await this.model.updateOne({ uuid, job_published_at: null }, { $set: { job_published_at: now } }).exec();
  }

  /** Queued generations whose render job was never confirmed by the broker (a publish that failed). */
  async findUnpublishedJobs(queuedBefore: Date, limit: number): Promise<GenerationDocument[]> {
    return this.model
      .find({ stage: 'pending', job_published_at: null, started_at: { $ne: null, $lt: queuedBefore } })
      .sort({ started_at: 1 })
      .limit(limit)
      .lean<GenerationDocument[]>()
      .exec();
  }

  async markProcessing(uuid: string): Promise<void> {
    await this.model.updateOne({ uuid, stage: 'pending' }, { $set: { stage: 'processing' } }).exec();
  }

  async setBase(uuid: string, index: number, key: string): Promise<void> {
    await this.model.updateOne({ uuid }, { $set: { [`images.${index}.base_key`]: key } }).exec();
  }

  async setFinal(uuid: string, index: number, key: string): Promise<void> {
    await this.model
      .updateOne(
        { uuid },
        { $set: { [`images.${index}.final_key`]: key, [`images.${index}.fixes_done`]: [true, true, true] } },
      )
      .exec();
  }

  async setImageError(uuid: string, index: number, message: string): Promise<void> {
    await this.model.updateOne({ uuid }, { $set: { [`images.${index}.error`]: message } }).exec();
  }

  async markRefunded(uuid: string, index: number): Promise<void> {
    await this.model.updateOne({ uuid }, { $set: { [`images.${index}.refunded`]: true } }).exec();
  }

  async finish(uuid: string, stage: Extract<GenerationStage, 'completed' | 'failed'>, error: string | null, now: Date) {
    await this.model
      .updateOne({ uuid, stage: { $in: ['pending', 'processing'] } }, { $set: { stage, error, finished_at: now } })
      .exec();
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

  countAll(): Promise<number> {
    return this.model.countDocuments({}).exec();
  }
}
