import type { BulkGeneration, CreateBulkGenerationRequest, CreateBulkGenerationResponse } from '@productgen/contracts';
import { AppError, type Logger, type ObjectStore } from '@productgen/service-kit';
import type { BillingClient } from './clients/billing';
import type { CreationFlow } from './creation';
import type { GenerationRepository } from './data/generation-repository';
import type { GenerationDocument } from './data/models';
import { isCategoryId, OTHER_CATEGORY } from './domain/categories';
import { generationView, objectKeys } from './domain/generation';
import { planVariations } from './domain/styles';
import { normalizeUpload, type UploadLimits } from './imaging/upload';
import type { ModelRuntime } from './models/runtime';
import { classifyProduct } from './pipeline/classify';

export interface BulkCreationDeps {
  generations: GenerationRepository;
  creation: CreationFlow;
  objectStore: ObjectStore;
  billing: BillingClient;
  runtime: ModelRuntime;
  uploadLimits: UploadLimits;
  logger: Logger;
  now: () => Date;
  /** How long a queued job may wait for the broker's confirmation before the sweeper publishes it. */
  publishGraceMs: number;
}

function queuedAnswer(generation: GenerationDocument): CreateBulkGenerationResponse {
  return {
    generation_uuid: generation.uuid,
    outcome: 'queued',
    category: generation.category,
    images: generation.num_images,
    error: null,
  };
}

/**
 * A batch product becomes a generation (bulk's internal call). The credits were reserved by bulk for the whole
 * batch, so nothing is reserved here; what is not used (a photo refused, a product no chosen preset fits, fewer
 * fitting presets than reserved images) is given back at once, before answering. Deterministic and idempotent by
 * generation_uuid: a repeated call decides the same and the give-backs are once per image in billing.
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

    let image: Awaited<ReturnType<typeof normalizeUpload>>;
    try {
      image = await normalizeUpload(Buffer.from(request.image, 'base64'), this.deps.uploadLimits);
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      await this.giveBack(request, 0, 'failed');
      return {
        generation_uuid: request.generation_uuid,
        outcome: 'failed',
        category: null,
        images: 0,
        error: error.message,
      };
    }
    const guess = await classifyProduct(this.deps.runtime, image.buffer);
    const category = isCategoryId(guess.category) ? guess.category : OTHER_CATEGORY;

    // With presets, only those made for this product's category apply (SPEC §5); none fitting skips the product.
    const chosen = await creation.resolvePresets(request.userId, request.presets);
    const fitting = chosen.filter((preset) => preset.category === category);
    if (chosen.length > 0 && fitting.length === 0) {
      await this.giveBack(request, 0, 'skipped');
      logger.info({ generation: request.generation_uuid, category }, 'batch product skipped: no preset fits');
      return { generation_uuid: request.generation_uuid, outcome: 'skipped', category, images: 0, error: null };
    }
    const count = fitting.length > 0 ? Math.min(fitting.length, request.count) : request.count;
    await this.giveBack(request, count, 'skipped');

    const brandColors = await creation.brandColors(request.userId);
    const originalKey = objectKeys.original(request.generation_uuid, image.extension);
    await this.deps.objectStore.putObject(originalKey, image.buffer, { contentType: image.contentType });
    const cutout = await creation.storeAnalysisMatte(request.generation_uuid, guess.matte);
    const variations = planVariations({
      generationUuid: request.generation_uuid,
      category,
      count,
      brandColors,
      presets: fitting,
    }).map((variation) => ({ index: variation.index, recipe: variation.recipe, preset_id: variation.presetId }));
    const now = this.deps.now();
    const queued = await generations.createQueuedForBatch({
      uuid: request.generation_uuid,
      userId: request.userId,
      bulkJobUuid: request.bulk_job_uuid,
      category,
      object: guess.object,
      originalKey,
      originalContentType: image.contentType,
      originalFilename: request.original_filename,
      cutout,
      variations,
      watermark: request.watermark,
      brandColors,
      now,
      sweepAfter: new Date(now.getTime() + this.deps.publishGraceMs),
    });
    try {
      await creation.publishJob(queued);
    } catch (error) {
      // Recorded with its credits: the sweeper publishes the job once its grace has passed (the outbox).
      logger.warn({ err: error, generation: queued.uuid }, 'batch render job not queued yet; the sweeper will');
    }
    return queuedAnswer(queued);
  }

  /** Gives back the reserved images from index `from` on. */
  private async giveBack(request: CreateBulkGenerationRequest, from: number, reason: 'failed' | 'skipped') {
    for (let index = from; index < request.count; index += 1) {
      await this.deps.billing.giveBack({
        userId: request.userId,
        generationUuid: request.generation_uuid,
        imageIndex: index,
        reason,
      });
    }
  }
}

/** A batch generation for bulk: the public view plus the stored original's extension (its Download All names). */
export function bulkGenerationView(generation: GenerationDocument): BulkGeneration {
  return {
    ...generationView(generation),
    original_extension: generation.original_content_type === 'image/png' ? 'png' : 'jpg',
  };
}
