import type { Readable } from 'node:stream';
import type { BusMessage, MessageBus, Subscription } from '@productgen/bus';
import { parseMessage, topics } from '@productgen/contracts';
import type { Logger, ObjectStore, CrashPoint } from '@productgen/service-kit';
import type { CrashStep } from '../config';
import type { GenerationRepository } from '../data/generation-repository';
import type { GenerationDocument } from '../data/schemas';
import { objectKeys } from '../domain/generation';
import {
  styleRecipeSchema,
  type Backdrop,
  type ProductSource,
  type StageTimes,
  type StudioRenderer,
} from '@productgen/studio-engine';
import type { Settlement } from '../settlement';

export const generationQueues = { render: 'generation.render' } as const;

export interface RenderWorkerDeps {
  generations: GenerationRepository;
  objectStore: ObjectStore;
  settlement: Settlement;
  bus: MessageBus;
  studio: StudioRenderer;
  logger: Logger;
  now: () => Date;
  /** Deliveries of a job before the bus dead-letters it (the sweeper then re-queues it or gives it up). */
  maxDeliveries: number;
  /** How long a render may go without progress before the sweeper queues it again. */
  stuckAfterMs: number;
  crashPoint: CrashPoint<CrashStep>;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Errors of the renderer itself (a retired style, the marketplace check, a photo that cannot be decoded) come
 * back the same on every try: the image fails and its credit goes back. Storage, database and billing errors
 * are thrown instead, so the bus retries the job.
 */
class RenderFailure extends Error {}

async function rendering<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new RenderFailure(messageOf(error), { cause: error });
  }
}

/**
 * The worker's job: renders one generation. Idempotent on redelivery: objects have fixed keys and the same bytes
 * (rendering is deterministic), finished images are skipped, credits were charged once when the job was queued,
 * and a failed image's credit is given back once (billing keys the give-back by image).
 */
export class RenderWorker {
  constructor(private readonly deps: RenderWorkerDeps) {}

  subscribe(prefetch: number): Promise<Subscription> {
    return this.deps.bus.subscribe(
      generationQueues.render,
      [topics.generationRequested],
      (message) => this.handle(message),
      {
        prefetch,
        maxDeliveries: this.deps.maxDeliveries,
        retryDelaysMs: [500, 2000, 10_000],
      },
    );
  }

  async handle(message: BusMessage): Promise<void> {
    const job = parseMessage(topics.generationRequested, message.payload);
    const generation = await this.deps.generations.findByUuid(job.generation_uuid);
    if (!generation) {
      this.deps.logger.warn({ generation: job.generation_uuid }, 'render job for an unknown generation dropped');
      return;
    }
    if (generation.stage === 'completed' || generation.stage === 'failed') return;
    await this.deps.generations.markProcessing(generation.uuid, this.progressDeadline());
    // A failure is retried by the bus; on the last delivery it dead-letters the job, and the sweeper re-queues it or
    // gives it up (one decision for every job whose deliveries ran out, however they were spent).
    await this.render(generation);
  }

  /** Renders what is not finished yet: every base first (shown at once), then the fixes. */
  async render(generation: GenerationDocument, times?: StageTimes): Promise<void> {
    const { studio, generations, objectStore, logger, settlement } = this.deps;
    const uuid = generation.uuid;
    const open = generation.variations.filter((variation) => {
      const image = generation.images[variation.index];
      return image !== undefined && image.final_key === null && image.error === null;
    });
    if (open.length > 0) {
      const original = await readAll(await objectStore.getObjectStream(generation.original_key));
      // The matte stored at analysis (or the seller's correction) cuts the product out; older records segment.
      const matte = generation.cutout
        ? await readAll(await objectStore.getObjectStream(generation.cutout.key))
        : undefined;
      // The photo is decoded, and its product later upscaled, for the largest layout among the images still to make.
      const recipes = open.flatMap((variation) => styleRecipeSchema.safeParse(variation.recipe).data ?? []);
      let product: Awaited<ReturnType<StudioRenderer['prepare']>>;
      try {
        product = await rendering(() => studio.prepare(original, times, matte, recipes));
      } catch (error) {
        if (!(error instanceof RenderFailure)) throw error;
        for (const variation of open) await settlement.failImage(generation, variation.index, error.message);
        await settlement.settle(uuid);
        return;
      }

      // The upscale runs on the inference thread (or libvips's) while this thread makes the backdrops and bases.
      const upscaling = rendering(() => studio.upscale(product, times, recipes));
      upscaling.catch(() => undefined);
      const backdrops = new Map<number, Backdrop>();
      for (const variation of open) {
        const image = generation.images[variation.index]!;
        try {
          const recipe = await rendering(async () => styleRecipeSchema.parse(variation.recipe));
          const backdrop = await rendering(() => studio.backdrop(product, recipe, times));
          backdrops.set(variation.index, backdrop);
          if (image.base_key !== null) continue;
          const base = await rendering(() => studio.renderBase(product, backdrop, times, generation.watermark));
          const key = objectKeys.base(uuid, variation.index);
          await objectStore.putObject(key, base.jpeg, { contentType: 'image/jpeg' });
          await generations.setBase(uuid, variation.index, key, generation.watermark, this.progressDeadline());
          this.deps.crashPoint('mid-render');
        } catch (error) {
          if (!(error instanceof RenderFailure)) throw error;
          await settlement.failImage(generation, variation.index, error.message);
        }
      }

      if (backdrops.size > 0) {
        let upscaled: ProductSource | undefined;
        try {
          upscaled = await upscaling;
        } catch (error) {
          if (!(error instanceof RenderFailure)) throw error;
          for (const index of backdrops.keys()) await settlement.failImage(generation, index, error.message);
        }
        // Encoding runs on libuv's threads while the next image is composed on this one: both cores work.
        const stores: Promise<void>[] = [];
        for (const [index, backdrop] of upscaled ? backdrops : []) {
          try {
            const finished = await rendering(() =>
              studio.renderFinal(upscaled!, backdrop, generation.watermark, times),
            );
            const key = objectKeys.final(uuid, index);
            stores.push(
              objectStore
                .putObject(key, finished.jpeg, { contentType: 'image/jpeg' })
                .then(() => generations.setFinal(uuid, index, key, this.progressDeadline()))
                .then(() => this.publishImageCompleted(generation, index, key)),
            );
          } catch (error) {
            if (!(error instanceof RenderFailure)) throw error;
            await settlement.failImage(generation, index, error.message);
          }
        }
        await Promise.all(stores);
      }
      logger.debug({ generation: uuid, images: open.length }, 'generation rendered');
    }
    // Gives back the credits of failed images (also those a crash left owed) and records the outcome.
    await settlement.settle(uuid);
  }

  private progressDeadline(): Date {
    return new Date(this.deps.now().getTime() + this.deps.stuckAfterMs);
  }

  private async publishImageCompleted(generation: GenerationDocument, index: number, key: string): Promise<void> {
    const payload = parseMessage(topics.generationImageCompleted, {
      userId: generation.user_id,
      generation_uuid: generation.uuid,
      image_index: index,
      output_object_key: key,
      bulk_job_uuid: generation.bulk_job_uuid,
      at: this.deps.now().toISOString(),
    });
    await this.deps.bus.publish(topics.generationImageCompleted, payload, {
      messageId: `${topics.generationImageCompleted}:${generation.uuid}:${index}`,
    });
  }
}
