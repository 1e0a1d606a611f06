import {
  isBatchPhotoKey,
  isCategoryId,
  NOT_A_BATCH_PHOTO_MESSAGE,
  OTHER_CATEGORY_ID,
  type BulkGeneration,
  type CategoryId,
  type CheckReason,
  type CreateBulkGenerationRequest,
  type CreateBulkGenerationResponse,
  type GiveBackReason,
} from '@productgen/contracts';
import { AppError, type Logger, type ObjectStore } from '@productgen/service-kit';
import type { BillingClient } from './clients/billing';
import { NO_CUTOUT_MESSAGE, type CreationFlow } from './creation';
import type { GenerationRepository } from './data/generation-repository';
import type { CutoutDocument, GenerationDocument } from './data/schemas';
import { generationView, objectKeys, servedKey } from './domain/generation';
import { checkReasons, planVariations, type StudioEngine } from '@productgen/studio-engine';
import { normalizeUpload, type UploadLimits } from './domain/upload';

export interface ReleaseHeldRequest {
  userId: string;
  /** The brush's mask, base64 PNG. */
  mask?: string;
  object?: string;
  category?: CategoryId;
}

export interface ReleaseHeldResponse {
  generation_uuid: string;
  outcome: 'queued' | 'skipped';
  images: number;
  credits_returned: number;
}

export interface RedoRequest extends ReleaseHeldRequest {
  new_generation_uuid: string;
  count: number;
  presets: string[];
  watermark: boolean;
}

export interface RedoResponse {
  generation_uuid: string;
  outcome: 'queued' | 'skipped';
  images: number;
}

export interface BulkCreationDeps {
  generations: GenerationRepository;
  creation: CreationFlow;
  objectStore: ObjectStore;
  /** Bulk's bucket: a batch's photos, handed over by reference. */
  batchPhotos: ObjectStore;
  billing: BillingClient;
  engine: StudioEngine;
  uploadLimits: UploadLimits;
  logger: Logger;
  now: () => Date;
  /** How long a queued job may wait for the broker's confirmation before the sweeper publishes it. */
  publishGraceMs: number;
}

function queuedAnswer(generation: GenerationDocument): CreateBulkGenerationResponse {
  return {
    generation_uuid: generation.uuid,
    outcome: generation.stage === 'held' ? 'held' : 'queued',
    category: generation.category,
    images: generation.num_images,
    error: null,
    object: generation.object,
    check_reasons: (generation.check_reasons ?? []) as CheckReason[],
  };
}

export const BATCH_PHOTO_NOT_FOUND_MESSAGE = "The batch's photo was not found; hand it over again.";
export const NOT_HELD_MESSAGE = 'This product is no longer waiting for your check.';
export const NOT_FINISHED_MESSAGE = 'This product is still being made. Redo it once its images are ready.';
export const REMOVED_FROM_BATCH_MESSAGE = 'Removed from the batch; its credits were given back.';
export const NO_PRESET_FITS_MESSAGE =
  "None of the batch's style presets was made for this category, so it was not rendered and its credits were given back.";

/** What a batch product renders with: the presets of the batch that fit its category, and how many images. */
interface BatchPlan {
  /** No chosen preset fits the category: nothing is rendered. */
  skipped: boolean;
  count: number;
  fitting: Awaited<ReturnType<CreationFlow['resolvePresets']>>;
}

/**
 * A batch product becomes a generation (bulk's internal call). The credits were reserved by bulk for the whole
 * batch, so nothing is reserved here; what is not used (a photo refused, a product no chosen preset fits, fewer
 * fitting presets than reserved images) is given back at once, before answering. Deterministic and idempotent by
 * generation_uuid: a repeated call decides the same and the give-backs are once per image in billing. When the
 * batch asked for it, a product analysis is unsure of (its cut-out or its category) is held for the seller's check
 * instead of queued: bulk later releases it (as it is or corrected) or drops it.
 */
export class BulkCreation {
  constructor(private readonly deps: BulkCreationDeps) {}

  async create(request: CreateBulkGenerationRequest): Promise<CreateBulkGenerationResponse> {
    const { generations, creation, logger } = this.deps;
    const existing = await generations.findByUuid(request.generation_uuid);
    if (existing) {
      if (existing.user_id !== request.userId) throw AppError.conflict('This generation id is already used.');
      return queuedAnswer(existing);
    }

    const photo = await this.readPhoto(request);
    let image: Awaited<ReturnType<typeof normalizeUpload>>;
    try {
      image = await normalizeUpload(photo, this.deps.uploadLimits);
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      await this.giveBack(request.userId, request.generation_uuid, 0, request.count, 'failed');
      return {
        generation_uuid: request.generation_uuid,
        outcome: 'failed',
        category: null,
        images: 0,
        error: error.message,
      };
    }
    const guess = await this.deps.engine.analysePhoto(image.buffer, {
      fileName: request.original_filename ?? undefined,
      shopCategories: await creation.shopCategories(request.userId),
    });
    const category = isCategoryId(guess.category) ? guess.category : OTHER_CATEGORY_ID;

    // With presets, only those made for this product's category apply (SPEC §5); none fitting skips the product.
    const plan = await this.plan(request.userId, request.presets, category, request.count);
    if (plan.skipped) {
      await this.giveBack(request.userId, request.generation_uuid, 0, request.count, 'skipped');
      logger.info({ generation: request.generation_uuid, category }, 'batch product skipped: no preset fits');
      return { generation_uuid: request.generation_uuid, outcome: 'skipped', category, images: 0, error: null };
    }
    const reasons = request.hold_uncertain ? checkReasons(guess.matte?.confidence, guess.confidence) : [];

    const brandColors = await creation.brandColors(request.userId);
    const originalKey = objectKeys.original(request.generation_uuid, image.extension);
    await this.deps.objectStore.putObject(originalKey, image.buffer, { contentType: image.contentType });
    const cutout = await creation.storeAnalysisMatte(request.generation_uuid, guess.matte);
    const product = {
      uuid: request.generation_uuid,
      userId: request.userId,
      bulkJobUuid: request.bulk_job_uuid,
      category,
      object: guess.object,
      originalKey,
      originalContentType: image.contentType,
      originalFilename: request.original_filename,
      cutout,
      watermark: request.watermark,
      brandColors,
    };
    if (reasons.length > 0) {
      // Held whole: the credits stay reserved, the presets are applied to the category the seller confirms.
      const held = await generations.createHeldForBatch({
        ...product,
        reserved: request.count,
        presets: request.presets,
        reasons,
      });
      logger.info({ generation: held.uuid, reasons }, "batch product held for the seller's check");
      return queuedAnswer(held);
    }
    await this.giveBack(request.userId, request.generation_uuid, plan.count, request.count, 'skipped');
    const now = this.deps.now();
    const queued = await generations.createQueuedForBatch({
      ...product,
      variations: this.variations(request.generation_uuid, category, plan, brandColors),
      now,
      sweepAfter: new Date(now.getTime() + this.deps.publishGraceMs),
    });
    await this.publish(queued);
    return queuedAnswer(queued);
  }

  /**
   * The batch photo bulk stored, read from bulk's bucket: only a key under the request's own batch prefix (its user's,
   * its job's) in the batch photos' bucket is read (400 otherwise, before any read), never an arbitrary object; a
   * missing one is 404. At most one byte more than an upload may have is read, so a photo too large fails the
   * upload's own size check (the product fails, its credits go back) without being read whole.
   */
  private async readPhoto(request: CreateBulkGenerationRequest): Promise<Buffer> {
    const { batchPhotos, uploadLimits } = this.deps;
    const { bucket, key } = request.photo;
    if (bucket !== batchPhotos.bucket || !isBatchPhotoKey(key, request.userId, request.bulk_job_uuid)) {
      throw AppError.badRequest(NOT_A_BATCH_PHOTO_MESSAGE);
    }
    const info = await batchPhotos.stat(key);
    if (!info) throw AppError.notFound(BATCH_PHOTO_NOT_FOUND_MESSAGE);
    if (info.size === 0) return Buffer.alloc(0);
    const stream = await batchPhotos.getObjectRange(key, 0, Math.min(info.size, uploadLimits.maxBytes + 1));
    return Buffer.concat(await stream.toArray());
  }

  /**
   * A held product renders, as analysed or with the seller's corrections, on the credits the batch reserved: a
   * corrected mask is checked as the single creation's brush is (400 when bad), the category picks the presets
   * again. Only one release wins (a conditional update from `held`); the others answer 409.
   */
  async release(uuid: string, request: ReleaseHeldRequest): Promise<ReleaseHeldResponse> {
    const { generations, creation } = this.deps;
    const held = await this.heldGeneration(uuid, request.userId);
    const category =
      request.category ?? (held.category && isCategoryId(held.category) ? held.category : OTHER_CATEGORY_ID);
    let cutout: CutoutDocument | undefined;
    if (request.mask !== undefined) {
      if (!held.cutout) throw AppError.notFound(NO_CUTOUT_MESSAGE);
      ({ cutout } = await creation.storeSellerMask(uuid, held.cutout, Buffer.from(request.mask, 'base64')));
    }
    const reserved = held.num_images;
    const plan = await this.plan(request.userId, held.batch_presets ?? [], category, reserved);
    if (plan.skipped) {
      const dropped = await generations.dropHeld(uuid, request.userId, NO_PRESET_FITS_MESSAGE, this.deps.now());
      if (!dropped) throw await this.notHeld(uuid, request.userId);
      await this.giveBack(request.userId, uuid, 0, reserved, 'skipped');
      return { generation_uuid: uuid, outcome: 'skipped', images: 0, credits_returned: reserved };
    }
    const now = this.deps.now();
    const released = await generations.releaseHeld(uuid, request.userId, {
      category,
      object: request.object,
      cutout,
      variations: this.variations(uuid, category, plan, held.brand_colors),
      watermark: held.watermark,
      now,
      sweepAfter: new Date(now.getTime() + this.deps.publishGraceMs),
    });
    if (!released) {
      if (cutout) await this.deps.objectStore.remove(cutout.key);
      throw await this.notHeld(uuid, request.userId);
    }
    await this.giveBack(request.userId, uuid, plan.count, reserved, 'skipped');
    await this.publish(released);
    return { generation_uuid: uuid, outcome: 'queued', images: plan.count, credits_returned: reserved - plan.count };
  }

  /**
   * A finished batch product made again as a new generation (`new_generation_uuid`, idempotent by it) from the same
   * photo, with the seller's corrections: the brush's mask (checked as the single creation's: 400 when bad), a name,
   * a category (the batch's presets applied to it). Its credits, when it costs any, bulk reserved under the new uuid;
   * unused ones are given back. Only a finished generation can be redone (409 while it renders).
   */
  async redo(uuid: string, request: RedoRequest): Promise<RedoResponse> {
    const { generations, creation, objectStore } = this.deps;
    const newUuid = request.new_generation_uuid;
    const existing = await generations.findByUuid(newUuid);
    if (existing) {
      if (existing.user_id !== request.userId) throw AppError.conflict('This generation id is already used.');
      return { generation_uuid: newUuid, outcome: 'queued', images: existing.num_images };
    }
    const source = await generations.findOwned(uuid, request.userId);
    if (!source || !source.bulk_job_uuid) throw AppError.notFound('Generation not found');
    if (source.stage !== 'completed' && source.stage !== 'failed') throw AppError.conflict(NOT_FINISHED_MESSAGE);
    if (request.mask !== undefined && !source.cutout) throw AppError.notFound(NO_CUTOUT_MESSAGE);

    // The mask is checked (and stored) first, so a bad one leaves nothing else behind.
    let cutout: CutoutDocument | null = null;
    if (source.cutout) {
      cutout =
        request.mask !== undefined
          ? (await creation.storeSellerMask(newUuid, source.cutout, Buffer.from(request.mask, 'base64'))).cutout
          : await this.copyObject(source.cutout.key, objectKeys.sellerMask(newUuid, 'redo'), 'image/png').then(
              (key) => ({ ...source.cutout!, key }),
            );
    }
    const category =
      request.category ?? (source.category && isCategoryId(source.category) ? source.category : OTHER_CATEGORY_ID);
    const plan = await this.plan(request.userId, request.presets, category, request.count);
    if (plan.skipped) {
      if (cutout) await objectStore.remove(cutout.key);
      await this.giveBack(request.userId, newUuid, 0, request.count, 'skipped');
      return { generation_uuid: newUuid, outcome: 'skipped', images: 0 };
    }
    const extension = source.original_content_type === 'image/png' ? 'png' : 'jpg';
    const originalKey = await this.copyObject(
      source.original_key,
      objectKeys.original(newUuid, extension),
      source.original_content_type,
    );
    await this.giveBack(request.userId, newUuid, plan.count, request.count, 'skipped');
    const now = this.deps.now();
    const queued = await generations.createQueuedForBatch({
      uuid: newUuid,
      userId: request.userId,
      bulkJobUuid: source.bulk_job_uuid,
      category,
      object: request.object ?? source.object ?? category,
      originalKey,
      originalContentType: source.original_content_type,
      originalFilename: source.original_filename ?? 'product',
      cutout,
      watermark: request.watermark,
      brandColors: source.brand_colors,
      variations: this.variations(newUuid, category, plan, source.brand_colors),
      now,
      sweepAfter: new Date(now.getTime() + this.deps.publishGraceMs),
    });
    await this.publish(queued);
    return { generation_uuid: newUuid, outcome: 'queued', images: queued.num_images };
  }

  /** A stored object copied under a new generation's key (each generation owns its files). */
  private async copyObject(from: string, to: string, contentType: string): Promise<string> {
    const stream = await this.deps.objectStore.getObjectStream(from);
    await this.deps.objectStore.putObject(to, Buffer.concat(await stream.toArray()), { contentType });
    return to;
  }

  /** A held product the seller removed from the batch: never rendered, every reserved credit given back at once. */
  async drop(uuid: string, userId: string): Promise<{ generation_uuid: string; credits_returned: number }> {
    await this.heldGeneration(uuid, userId);
    const dropped = await this.deps.generations.dropHeld(uuid, userId, REMOVED_FROM_BATCH_MESSAGE, this.deps.now());
    if (!dropped) throw await this.notHeld(uuid, userId);
    await this.giveBack(userId, uuid, 0, dropped.num_images, 'skipped');
    return { generation_uuid: uuid, credits_returned: dropped.num_images };
  }

  private async heldGeneration(uuid: string, userId: string): Promise<GenerationDocument> {
    const generation = await this.deps.generations.findOwned(uuid, userId);
    if (!generation || !generation.bulk_job_uuid) throw AppError.notFound('Generation not found');
    if (generation.stage !== 'held') throw AppError.conflict(NOT_HELD_MESSAGE);
    return generation;
  }

  /** Why a conditional release or drop changed nothing: another one won meanwhile (409), or it is gone (404). */
  private async notHeld(uuid: string, userId: string): Promise<AppError> {
    const generation = await this.deps.generations.findOwned(uuid, userId);
    return generation ? AppError.conflict(NOT_HELD_MESSAGE) : AppError.notFound('Generation not found');
  }

  private async plan(userId: string, presetIds: readonly string[], category: CategoryId, reserved: number) {
    const chosen = await this.deps.creation.resolvePresets(userId, presetIds);
    const fitting = chosen.filter((preset) => preset.category === category);
    const plan: BatchPlan = {
      skipped: chosen.length > 0 && fitting.length === 0,
      count: fitting.length > 0 ? Math.min(fitting.length, reserved) : reserved,
      fitting,
    };
    return plan;
  }

  private variations(uuid: string, category: CategoryId, plan: BatchPlan, brandColors: string[]) {
    return planVariations({
      generationUuid: uuid,
      category,
      count: plan.count,
      brandColors,
      presets: plan.fitting,
    }).map((variation) => ({ index: variation.index, recipe: variation.recipe, preset_id: variation.presetId }));
  }

  private async publish(queued: GenerationDocument): Promise<void> {
    try {
      await this.deps.creation.publishJob(queued);
    } catch (error) {
      // Recorded with its credits: the sweeper publishes the job once its grace has passed (the outbox).
      this.deps.logger.warn(
        { err: error, generation: queued.uuid },
        'batch render job not queued yet; the sweeper will',
      );
    }
  }

  /** Gives back the reserved images `from` to `reserved - 1`. */
  private async giveBack(
    userId: string,
    generationUuid: string,
    from: number,
    reserved: number,
    reason: GiveBackReason,
  ) {
    for (let index = from; index < reserved; index += 1) {
      await this.deps.billing.giveBack({ userId, generationUuid, imageIndex: index, reason });
    }
  }
}

/**
 * A batch generation for bulk: the public view plus the stored original's extension (its Download All names) and
 * the objects its downloads serve in `bucket` (generation's), chosen by `servedKey` as the download route chooses
 * them, so Download All reads the same objects without streaming them through this service.
 */
export function bulkGenerationView(generation: GenerationDocument, bucket: string): BulkGeneration {
  const images = generation.images.flatMap((image) => {
    const key = servedKey(generation, image);
    return key === null ? [] : [{ index: image.index, bucket, key }];
  });
  return {
    ...generationView(generation),
    original_extension: generation.original_content_type === 'image/png' ? 'png' : 'jpg',
    object: generation.object,
    downloads: { original: { bucket, key: generation.original_key }, images },
  };
}
