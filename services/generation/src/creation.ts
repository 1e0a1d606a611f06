import { randomUUID } from 'node:crypto';
import type { MessageBus } from '@productgen/bus';
import { parseMessage, topics, type AnalysisResult, type GenerationStarted } from '@productgen/contracts';
import { AppError, type Logger, type ObjectStore } from '@productgen/service-kit';
import type { AuthClient } from './clients/auth';
import type { BillingClient } from './clients/billing';
import type { GenerationRepository } from './data/generation-repository';
import type { GenerationDocument } from './data/models';
import type { PresetRepository } from './data/preset-repository';
import { isCategoryId, OTHER_CATEGORY } from './domain/categories';
import { objectKeys } from './domain/generation';
import { planVariations, styleRecipeSchema } from './domain/styles';
import { normalizeUpload, type UploadLimits } from './imaging/decode';
import type { ModelRuntime } from './models/runtime';
import { classifyProduct } from './pipeline/classify';

export interface CreationDeps {
  generations: GenerationRepository;
  presets: PresetRepository;
  objectStore: ObjectStore;
  bus: MessageBus;
  billing: BillingClient;
  auth: AuthClient;
  runtime: ModelRuntime;
  uploadLimits: UploadLimits;
  logger: Logger;
  now: () => Date;
}

export interface CreateRequest {
  userId: string;
  generationUuid: string;
  numGenerates: number;
  presets?: readonly string[];
  bulkJobUuid?: string | null;
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
  async analyze(userId: string, bytes: Buffer): Promise<AnalysisResult> {
    const image = await normalizeUpload(bytes, this.deps.uploadLimits);
    const guess = await classifyProduct(this.deps.runtime.classifier, this.deps.runtime.labels, image.buffer);
    const uuid = randomUUID();
    const originalKey = objectKeys.original(uuid, image.extension);
    await this.deps.objectStore.putObject(originalKey, image.buffer, { contentType: image.contentType });
    await this.deps.generations.createAnalyzed({
      uuid,
      userId,
      category: guess.category,
      object: guess.object,
      originalKey,
      originalContentType: image.contentType,
      originalFilename: null,
    });
    this.deps.logger.info(
      { generation: uuid, category: guess.category, object: guess.object, confidence: guess.confidence },
      'photo analysed',
    );
    return { category: guess.category, object: guess.object, generation_uuid: uuid };
  }

  /**
   * Reserves the credits and queues the render job. Unknown or foreign presets and an unknown generation are
   * 404s before anything is charged; too few credits is billing's 402 and nothing is queued. Creating again from
   * a photo that was already used makes a new generation of the same photo.
   */
  async create(request: CreateRequest): Promise<GenerationStarted> {
    const { generations } = this.deps;
    const source = await generations.findOwned(request.generationUuid, request.userId);
    if (!source) throw AppError.notFound('Generation not found');
    const presets = await this.resolvePresets(request.userId, request.presets ?? []);

    let generation = await generations.claimForCreation(source.uuid, request.userId);
    if (!generation) {
      if (source.stage === 'reserving') throw AppError.conflict('This photo is already being created. Please wait.');
      generation = await generations.cloneForCreation(source, randomUUID());
    }
    const count = presets.length > 0 ? presets.length : request.numGenerates;
    try {
      const brandColors = await this.brandColors(request.userId);
      const category = generation.category && isCategoryId(generation.category) ? generation.category : OTHER_CATEGORY;
      const planned = planVariations({ generationUuid: generation.uuid, category, count, brandColors, presets });
      const reservation = await this.deps.billing.reserve({
        userId: request.userId,
        generationUuid: generation.uuid,
        count,
        description: count === 1 ? 'Image generation (1 image)' : `Image generation (${count} images)`,
      });
      const queued = await generations.markQueued(generation.uuid, {
        variations: planned.map((variation) => ({
          index: variation.index,
          recipe: variation.recipe,
          preset_id: variation.presetId,
        })),
        watermark: reservation.watermark,
        brandColors,
        now: this.deps.now(),
      });
      if (!queued) throw AppError.conflict('This photo is already being created. Please wait.');
      try {
        await this.publishJob(queued, request.bulkJobUuid ?? null);
      } catch (error) {
        // The credits are reserved and the generation is recorded: the sweeper publishes the job later.
        this.deps.logger.warn({ err: error, generation: queued.uuid }, 'render job not queued yet; the sweeper will');
      }
      return { generation_uuid: queued.uuid, status: 'pending' };
    } catch (error) {
      // Not queued: the photo can be used again (a reservation already made is found again by its uuid).
      await generations.releaseClaim(generation.uuid);
      throw error;
    }
  }

  /** (Re)publishes the render job of a queued generation; the same message id every time. */
  async publishJob(generation: GenerationDocument, bulkJobUuid: string | null): Promise<void> {
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
      bulk_job_uuid: bulkJobUuid,
      at: this.deps.now().toISOString(),
    });
    await this.deps.bus.publish(topics.generationRequested, payload, {
      messageId: renderJobMessageId(generation.uuid),
    });
    await this.deps.generations.markJobPublished(generation.uuid, this.deps.now());
  }

  /**
   * The outbox sweep: publishes the render jobs of generations queued more than `graceMs` ago whose publish never
   * got the broker's confirmation. The message id is the same every time, so a job published twice renders once.
   */
  async publishUnpublishedJobs(graceMs: number, limit = 50): Promise<number> {
    const stale = await this.deps.generations.findUnpublishedJobs(new Date(this.deps.now().getTime() - graceMs), limit);
    for (const generation of stale) await this.publishJob(generation, generation.bulk_job_uuid);
    return stale.length;
  }

  private async resolvePresets(userId: string, ids: readonly string[]) {
    if (ids.length === 0) return [];
    const found = await this.deps.presets.findManyOwned(ids, userId);
    return found.map((preset, index) => {
      if (!preset) throw AppError.notFound(`Style preset not found: ${ids[index]}`);
      const recipe = styleRecipeSchema.safeParse(preset.recipe);
      if (!recipe.success) throw AppError.unprocessable(`Style preset "${preset.name}" can no longer be used.`);
      return { id: String(preset._id), recipe: recipe.data };
    });
  }

  /** The shop's brand colours; the render goes ahead without them when auth cannot say. */
  private async brandColors(userId: string): Promise<string[]> {
    try {
      const profile = await this.deps.auth.shopProfile(userId);
      return profile.brand_colors.filter((color) => /^#[0-9a-f]{6}$/i.test(color)).slice(0, 5);
    } catch (error) {
      this.deps.logger.warn({ err: error, userId }, 'shop profile unavailable; rendering without brand colours');
      return [];
    }
  }
}
