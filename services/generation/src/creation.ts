import { randomUUID } from 'node:crypto';
import type { MessageBus } from '@productgen/bus';
import {
  isCategoryId,
  limits,
  OTHER_CATEGORY_ID,
  parseMessage,
  topics,
  type AnalysisCorrection,
  type AnalysisResult,
  type CategoryId,
  type Cutout,
  type GenerationStarted,
  type ReserveCreditsResponse,
} from '@productgen/contracts';
import { sniffImageType } from '@productgen/image-checks';
import { AppError, type Logger, type ObjectStore, type CrashPoint } from '@productgen/service-kit';
import sharp from 'sharp';
import type { AuthClient, ShopProfile } from './clients/auth';
import type { BillingClient } from './clients/billing';
import type { CrashStep } from './config';
import type { CreationPlan, GenerationRepository } from './data/generation-repository';
import type { CutoutDocument, GenerationDocument } from './data/schemas';
import type { PresetRepository } from './data/preset-repository';
import { cutoutView, objectKeys } from './domain/generation';
import { NOTHING_CHARGED_MESSAGE } from './domain/sweep';
import {
  encodeMattePng,
  grayscalePng,
  planVariations,
  styleRecipeSchema,
  type ProductMatte,
  type StudioEngine,
} from '@productgen/studio-engine';
import { normalizeUpload, type UploadLimits } from './domain/upload';

export interface CreationDeps {
  generations: GenerationRepository;
  presets: PresetRepository;
  objectStore: ObjectStore;
  bus: MessageBus;
  billing: BillingClient;
  auth: AuthClient;
  engine: StudioEngine;
  uploadLimits: UploadLimits;
  logger: Logger;
  now: () => Date;
  timing: CreationTiming;
  crashPoint: CrashPoint<CrashStep>;
}

/** How long each stage may last before the sweeper takes the generation up (config.ts). */
export interface CreationTiming {
  /** How long an analysed photo is kept for a Create (then the sweeper removes it and its files). */
  analysedTtlMs: number;
  reservingTimeoutMs: number;
  publishGraceMs: number;
  stuckAfterMs: number;
}

export interface CreateRequest {
  userId: string;
  generationUuid: string;
  numGenerates: number;
  presets?: readonly string[];
  bulkJobUuid?: string | null;
}

export const ALREADY_CREATED_MESSAGE =
  'Images are already being made from this photo, so its cut-out, name and category can no longer change. Upload the photo again to change them.';
export const NO_CUTOUT_MESSAGE = 'This photo has no cut-out to correct.';
// The contracts' category schema answers an unknown category with it, before this service is reached.
export { UNKNOWN_CATEGORY_MESSAGE } from '@productgen/contracts';
export const ANALYSIS_EXPIRED_MESSAGE =
  'This photo was uploaded too long ago and has been removed. Please upload it again.';
export const CONCURRENT_CORRECTION_MESSAGE =
  'Another correction of this cut-out was saved at the same moment. Please save yours again.';
export const MASK_NOT_PNG_MESSAGE = 'The mask must be a PNG image.';
export const MASK_UNREADABLE_MESSAGE = 'The mask could not be read: the PNG is damaged or incomplete.';
export const MASK_KEEPS_NOTHING_MESSAGE = 'The mask removes the whole photo. Paint Keep over your product.';

/** The seller's mask checked (PNG by its magic bytes, size cap, the stored mask's pixel size) and made grayscale. */
async function sellerMaskPng(bytes: Buffer, stored: CutoutDocument): Promise<Buffer> {
  if (bytes.length > limits.maxMaskBytes) {
    throw AppError.payloadTooLarge(`The mask is too large: at most ${limits.maxMaskBytes / 1024} KB.`);
  }
  if (sniffImageType(bytes) !== 'png') throw AppError.badRequest(MASK_NOT_PNG_MESSAGE);
  let size: { width?: number; height?: number };
  try {
    size = await sharp(bytes).metadata();
  } catch {
    throw AppError.badRequest(MASK_UNREADABLE_MESSAGE);
  }
  if (size.width !== stored.width || size.height !== stored.height) {
    throw AppError.badRequest(
      `The mask must be ${stored.width}×${stored.height} pixels, the size of the photo's cut-out; this one is ${size.width ?? 0}×${size.height ?? 0}.`,
    );
  }
  let png: Buffer;
  try {
    png = await grayscalePng(bytes);
  } catch {
    throw AppError.badRequest(MASK_UNREADABLE_MESSAGE);
  }
  // Nothing kept would leave no product: the renderer would fall back to the whole photo, which is not what was asked.
  const [gray] = (await sharp(png).stats()).channels;
  if (!gray || gray.max < 128) throw AppError.badRequest(MASK_KEEPS_NOTHING_MESSAGE);
  return png;
}

/** A 4xx from billing is an answer (nothing was taken); a 5xx, a time-out or no answer leaves the outcome unknown. */
function isRefusal(error: unknown): boolean {
  return error instanceof AppError && error.status >= 400 && error.status < 500;
}

/** One message per generation: a republish (retry, sweeper) is the same message to every consumer. */
export function renderJobMessageId(uuid: string): string {
  return `${topics.generationRequested}:${uuid}`;
}

/** Analysing photos and starting generations: everything the API does before the worker takes over. */
export class CreationFlow {
  constructor(private readonly deps: CreationDeps) {}

  /**
   * Checks and stores the photo, names the product and its category, and records an analysed generation.
   * Nothing is stored when the photo is refused.
   */
  async analyze(userId: string, bytes: Buffer, fileName?: string): Promise<AnalysisResult> {
    const image = await normalizeUpload(bytes, this.deps.uploadLimits);
    const guess = await this.deps.engine.analysePhoto(image.buffer, {
      fileName,
      shopCategories: await this.shopCategories(userId),
    });
    const uuid = randomUUID();
    const originalKey = objectKeys.original(uuid, image.extension);
    await this.deps.objectStore.putObject(originalKey, image.buffer, { contentType: image.contentType });
    const cutout = await this.storeAnalysisMatte(uuid, guess.matte);
    await this.deps.generations.createAnalyzed({
      uuid,
      userId,
      category: guess.category,
      object: guess.object,
      originalKey,
      originalContentType: image.contentType,
      originalFilename: fileName ?? null,
      cutout,
      expiresAt: this.after(this.deps.timing.analysedTtlMs),
    });
    this.deps.logger.info(
      {
        generation: uuid,
        category: guess.category,
        object: guess.object,
        confidence: guess.confidence,
        nameSource: guess.nameSource,
        cutoutConfidence: cutout?.confidence,
      },
      'photo analysed',
    );
    return { category: guess.category, object: guess.object, generation_uuid: uuid };
  }

  /**
   * Stores the matte analysis cut the product out by, so the renderer cuts by it instead of segmenting again and
   * the seller can correct it. Null when the segmenter found nothing (the renderer then uses the whole photo).
   */
  async storeAnalysisMatte(uuid: string, matte: ProductMatte | undefined): Promise<CutoutDocument | null> {
    if (!matte) return null;
    const key = objectKeys.analysisMatte(uuid);
    await this.deps.objectStore.putObject(key, await encodeMattePng(matte.alpha), { contentType: 'image/png' });
    return {
      key,
      width: matte.alpha.width,
      height: matte.alpha.height,
      confidence: Math.min(1, Math.max(0, matte.confidence)),
      corrected: false,
    };
  }

  // ---- the seller's corrections before Create

  /** The analysed photo's cut-out mask, for the seller's brush. */
  async cutout(userId: string, uuid: string): Promise<Cutout> {
    const generation = await this.ownedGeneration(uuid, userId);
    if (!generation.cutout) throw AppError.notFound(NO_CUTOUT_MESSAGE);
    const stream = await this.deps.objectStore.getObjectStream(generation.cutout.key);
    return cutoutView(generation, generation.cutout, Buffer.concat(await stream.toArray()));
  }

  /**
   * The seller's corrected mask replaces the cut-out for every image of the creation. It must be a PNG of the
   * stored mask's size; it is stored as grayscale under a key of its own, then recorded only if the photo is still
   * uncreated and no other correction was recorded meanwhile (otherwise the stored file is removed again and
   * nothing changed). The previous correction's file is then removed, so repeated saves keep one mask, not a pile;
   * the analysis matte stays (it is what analysis found).
   */
  async saveCutout(userId: string, uuid: string, bytes: Buffer): Promise<Cutout> {
    const generation = await this.editableGeneration(uuid, userId);
    const stored = generation.cutout;
    if (!stored) throw AppError.notFound(NO_CUTOUT_MESSAGE);
    const { cutout, png } = await this.storeSellerMask(uuid, stored, bytes);
    const updated = await this.deps.generations.replaceCutout(uuid, userId, stored.key, cutout);
    if (!updated) {
      await this.deps.objectStore.remove(cutout.key);
      const current = await this.deps.generations.findOwned(uuid, userId);
      if (current?.stage === 'analyzed') throw AppError.conflict(CONCURRENT_CORRECTION_MESSAGE);
      throw await this.notEditable(uuid, userId);
    }
    if (stored.corrected) await this.deps.objectStore.remove(stored.key);
    return cutoutView(updated, cutout, png);
  }

  /**
   * The seller's mask checked (a PNG of the stored mask's size that keeps something; 400 otherwise) and stored as
   * grayscale under a key of its own; answers the cut-out record pointing at it, for the caller to record.
   */
  async storeSellerMask(
    uuid: string,
    stored: CutoutDocument,
    bytes: Buffer,
  ): Promise<{ cutout: CutoutDocument; png: Buffer }> {
    const png = await sellerMaskPng(bytes, stored);
    const key = objectKeys.sellerMask(uuid, randomUUID().slice(0, 8));
    await this.deps.objectStore.putObject(key, png, { contentType: 'image/png' });
    return { cutout: { ...stored, key, corrected: true }, png };
  }

  /** The seller's product name and category; the category chooses the looks and presets of the creation. */
  async correctAnalysis(userId: string, uuid: string, correction: AnalysisCorrection): Promise<AnalysisResult> {
    await this.editableGeneration(uuid, userId);
    const updated = await this.deps.generations.correctAnalysed(uuid, userId, correction);
    if (!updated) throw await this.notEditable(uuid, userId);
    return { category: updated.category ?? OTHER_CATEGORY_ID, object: updated.object ?? '', generation_uuid: uuid };
  }

  private async ownedGeneration(uuid: string, userId: string): Promise<GenerationDocument> {
    const generation = await this.deps.generations.findOwned(uuid, userId);
    if (!generation) throw AppError.notFound('Generation not found');
    return generation;
  }

  /** The user's generation while it can still be corrected: 404 when not theirs, 409 once created from. */
  private async editableGeneration(uuid: string, userId: string): Promise<GenerationDocument> {
    const generation = await this.ownedGeneration(uuid, userId);
    if (generation.stage !== 'analyzed') throw AppError.conflict(ALREADY_CREATED_MESSAGE);
    return generation;
  }

  /** Why a conditional correction found nothing to change: gone (404) or created from meanwhile (409). */
  private async notEditable(uuid: string, userId: string): Promise<AppError> {
    const generation = await this.deps.generations.findOwned(uuid, userId);
    return generation ? AppError.conflict(ALREADY_CREATED_MESSAGE) : AppError.notFound('Generation not found');
  }

  /**
   * Reserves the credits and queues the render job. Unknown or foreign presets and an unknown generation are
   * 404s before anything is charged; too few credits is billing's 402 and nothing is queued. Creating again from
   * a photo that was already used makes a new generation of the same photo.
   *
   * The plan (variations, brand colours) is recorded with the claim, before billing is asked, so whatever step this
   * process stops at, the sweeper can finish the creation: it asks billing whether the credits were taken, then
   * queues the job or fails the generation with nothing charged.
   */
  async create(request: CreateRequest): Promise<GenerationStarted> {
    const { generations, timing } = this.deps;
    const source = await generations.findOwned(request.generationUuid, request.userId);
    if (!source) throw AppError.notFound('Generation not found');
    const presets = await this.resolvePresets(request.userId, request.presets ?? []);
    const count = presets.length > 0 ? presets.length : request.numGenerates;
    const brandColors = await this.brandColors(request.userId);
    const category = source.category && isCategoryId(source.category) ? source.category : OTHER_CATEGORY_ID;
    const planFor = (generationUuid: string): CreationPlan => ({
      variations: planVariations({ generationUuid, category, count, brandColors, presets }).map((variation) => ({
        index: variation.index,
        recipe: variation.recipe,
        preset_id: variation.presetId,
      })),
      brandColors,
      bulkJobUuid: request.bulkJobUuid ?? null,
      sweepAfter: this.after(timing.reservingTimeoutMs),
    });

    const now = this.deps.now();
    let generation = await generations.claimForCreation(source.uuid, request.userId, planFor(source.uuid), now);
    if (!generation) {
      // An analysed photo left too long is being removed by the sweeper: nothing to create from, not even a copy.
      if (source.stage === 'analyzed' && source.expires_at && source.expires_at <= now) {
        throw AppError.notFound(ANALYSIS_EXPIRED_MESSAGE);
      }
      if (source.stage === 'reserving') throw AppError.conflict('This photo is already being created. Please wait.');
      const uuid = randomUUID();
      generation = await generations.cloneForCreation(source, uuid, planFor(uuid));
    }

    let reservation: ReserveCreditsResponse;
    try {
      reservation = await this.deps.billing.reserve({
        userId: request.userId,
        generationUuid: generation.uuid,
        count,
        description: count === 1 ? 'Image generation (1 image)' : `Image generation (${count} images)`,
      });
    } catch (error) {
      // Refused (402 and the like): nothing was taken and the photo can be used again. Any other failure leaves
      // the outcome unknown: the generation stays reserving and the sweeper asks billing what happened.
      if (isRefusal(error)) await generations.releaseClaim(generation.uuid, this.after(timing.analysedTtlMs));
      throw error;
    }
    this.deps.crashPoint('after-reserve');

    const queued = await generations.markQueued(generation, {
      watermark: reservation.watermark,
      now: this.deps.now(),
      sweepAfter: this.after(timing.publishGraceMs),
    });
    if (!queued) return this.takenOverBySweeper(generation);
    this.deps.crashPoint('before-queue');
    try {
      await this.publishJob(queued);
    } catch (error) {
      // The credits are reserved and the generation is recorded: the sweeper publishes the job later.
      this.deps.logger.warn({ err: error, generation: queued.uuid }, 'render job not queued yet; the sweeper will');
    }
    return { generation_uuid: queued.uuid, status: 'pending' };
  }

  /** (Re)publishes the render job of a queued generation; the same message id every time. */
  async publishJob(generation: GenerationDocument): Promise<void> {
    const payload = parseMessage(topics.generationRequested, {
      userId: generation.user_id,
      generation_uuid: generation.uuid,
      count: generation.variations.length,
      category: generation.category,
      original_object_key: generation.original_key,
      original_filename: generation.original_filename,
      variations: generation.variations.map((variation) => ({
        index: variation.index,
        style: variation.recipe.look,
        seed: variation.recipe.seed,
        preset_id: variation.preset_id,
      })),
      watermark: generation.watermark,
      bulk_job_uuid: generation.bulk_job_uuid,
      at: this.deps.now().toISOString(),
    });
    await this.deps.bus.publish(topics.generationRequested, payload, {
      messageId: renderJobMessageId(generation.uuid),
    });
    await this.deps.generations.markJobPublished(
      generation.uuid,
      this.deps.now(),
      this.after(this.deps.timing.stuckAfterMs),
    );
  }

  /**
   * The reservation went through but the generation had left `reserving`: this call outlived the reserving timeout
   * and the sweeper settled the creation meanwhile. Queued by it: the images are on their way. Failed by it (billing
   * had nothing then): the credits just taken are given back at once.
   */
  private async takenOverBySweeper(generation: GenerationDocument): Promise<GenerationStarted> {
    const now = await this.deps.generations.findByUuid(generation.uuid);
    if (now && now.stage !== 'failed') return { generation_uuid: generation.uuid, status: 'pending' };
    this.deps.logger.error({ generation: generation.uuid }, 'credits taken after the creation was failed; giving back');
    for (const variation of generation.variations) {
      await this.deps.billing.giveBack({
        userId: generation.user_id,
        generationUuid: generation.uuid,
        imageIndex: variation.index,
        reason: 'failed',
      });
    }
    throw AppError.conflict(NOTHING_CHARGED_MESSAGE);
  }

  private after(ms: number): Date {
    return new Date(this.deps.now().getTime() + ms);
  }

  /** The user's presets by id with their looks and categories; an unknown or foreign one is a 404. */
  async resolvePresets(userId: string, ids: readonly string[]) {
    if (ids.length === 0) return [];
    const found = await this.deps.presets.findManyOwned(ids, userId);
    return found.map((preset, index) => {
      if (!preset) throw AppError.notFound(`Style preset not found: ${ids[index]}`);
      const recipe = styleRecipeSchema.safeParse(preset.recipe);
      if (!recipe.success) throw AppError.unprocessable(`Style preset "${preset.name}" can no longer be used.`);
      return { id: String(preset._id), recipe: recipe.data, category: preset.category, name: preset.name };
    });
  }

  /** The shop's brand colours; the render goes ahead without them when auth cannot say. */
  async brandColors(userId: string): Promise<string[]> {
    const profile = await this.shopProfile(userId, 'rendering without brand colours');
    return (profile?.brand_colors ?? []).filter((color) => /^#[0-9a-f]{6}$/i.test(color)).slice(0, 5);
  }

  /** The categories of the seller's shop, a hint for analysis; none when auth cannot say. */
  async shopCategories(userId: string): Promise<CategoryId[]> {
    const profile = await this.shopProfile(userId, 'analysing without the shop context');
    return [...new Set((profile?.shop_context ?? []).map((entry) => entry.category_id))];
  }

  private async shopProfile(userId: string, without: string): Promise<ShopProfile | undefined> {
    try {
      return await this.deps.auth.shopProfile(userId);
    } catch (error) {
      this.deps.logger.warn({ err: error, userId }, `shop profile unavailable; ${without}`);
      return undefined;
    }
  }
}
