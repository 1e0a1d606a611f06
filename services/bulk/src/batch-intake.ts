import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import { limits, OUT_OF_CREDITS_MESSAGE, routes, validateRequest, type RouteBody } from '@productgen/contracts';
import { AppError, type Logger, type ObjectStore } from '@productgen/service-kit';
import type { BillingClient } from './clients/billing';
import type { GenerationClient } from './clients/generation';
import type { JobRepository } from './data/job-repository';
import type { JobDocument } from './data/models';
import type { HandOver } from './hand-over';
import { ImageCountWatch } from './intake/image-count-watch';
import { discardUnreadBody, receiveZipUpload } from './intake/upload';
import { inspectZip, type ZipLimits } from './intake/zip-intake';

export interface BatchIntakeDeps {
  jobs: JobRepository;
  objectStore: ObjectStore;
  billing: BillingClient;
  generation: GenerationClient;
  handOver: HandOver;
  logger: Logger;
  now: () => Date;
  maxZipBytes: number;
  zipLimits: ZipLimits;
  leaseMs: number;
}

type BulkZipBody = RouteBody<typeof routes.createBulkJob>;

const uploadKey = (jobUuid: string) => `uploads/${jobUuid}.zip`;

function isPaymentRequired(error: unknown): boolean {
  return error instanceof AppError && error.status === 402;
}

/**
 * Refuses a zip (402) as soon as the image entries seen so far need more credits than the balance: each takes the
 * per-product count sent before the file (the web app sends it first), else at least one. The rest of the body is
 * then drained unread and nothing is stored; the reservation still checks the full count of a zip that fits.
 */
function refuseBeyondCredits(credits: number, fieldsBeforeFile: Readonly<Record<string, string>>): ImageCountWatch {
  const declared = Number(fieldsBeforeFile.numGenerates);
  // A count outside the contract's range is the validation's 400 later, not a reason to refuse here.
  const perImage =
    Number.isInteger(declared) && declared >= 1 && declared <= limits.maxImagesPerGeneration ? declared : 1;
  return new ImageCountWatch((images) => {
    if (images * perImage > credits) throw AppError.paymentRequired(OUT_OF_CREDITS_MESSAGE);
  });
}

/**
 * POST /image-gen/bulk-zip: the upload is streamed to the object store, its fields and every image are checked,
 * then the whole batch is reserved at once. Any refusal (4xx) leaves nothing behind: the upload is removed, no job
 * exists and nothing was charged. Once reserved, the products are handed to generation in the background.
 */
export class BatchIntake {
  constructor(private readonly deps: BatchIntakeDeps) {}

  async start(req: Request, userId: string): Promise<{ bulk_job_uuid: string }> {
    const { objectStore, logger } = this.deps;
    const jobUuid = randomUUID();
    const key = uploadKey(jobUuid);
    const credits = await this.refuseWithoutCredits(req, userId);
    let job: JobDocument;
    try {
      const upload = await receiveZipUpload(req, {
        objectStore,
        key,
        maxBytes: this.deps.maxZipBytes,
        watchZip: (fields) => refuseBeyondCredits(credits, fields),
      });
      const body = this.parseFields(upload.fields, upload.file);
      const presets = body.presets ?? [];
      if (presets.length > 0) {
        // An unknown or foreign preset is generation's 404, before anything is charged.
        await this.deps.generation.api.stylePresetsById({ params: { userId }, query: { ids: presets.join(',') } });
      }
      const images = await inspectZip(objectStore, key, this.deps.zipLimits);
      job = await this.deps.jobs.create({
        uuid: jobUuid,
        userId,
        imagesPerProduct: body.numGenerates,
        presets,
        checkUncertain: body.checkUncertain,
        uploadKey: key,
        products: images.map((image, index) => ({
          index,
          entry_index: image.entryIndex,
          name: image.name,
          generation_uuid: randomUUID(),
        })),
      });
    } catch (error) {
      await this.discardUpload(key);
      throw error;
    }

    let reserved: JobDocument | null;
    try {
      reserved = await this.reserve(job);
    } catch (error) {
      if (isPaymentRequired(error)) {
        await this.deps.jobs.remove(job.uuid);
        await this.discardUpload(key);
      }
      // Otherwise the job stays "reserving": the sweeper asks billing again and either goes on or removes it.
      throw error;
    }
    if (reserved) {
      logger.info({ job: job.uuid, products: job.products.length }, 'batch job reserved');
      this.deps.handOver.run(reserved).catch((error: unknown) => {
        logger.warn({ err: error, job: job.uuid }, 'batch hand-over stopped; the sweeper resumes it');
      });
    }
    return { bulk_job_uuid: job.uuid };
  }

  /**
   * A zip (up to MAX_ZIP_BYTES) is stored and its central directory read before its image count, and so the credits
   * it needs, is known; an account without a single credit can make nothing of it, so it is refused before any of
   * that (402, the body discarded unread). Otherwise the balance, for refuseBeyondCredits while the zip streams in.
   */
  private async refuseWithoutCredits(req: Request, userId: string): Promise<number> {
    let credits: number;
    try {
      ({ credits } = await this.deps.billing.userBilling({ params: { userId } }));
    } catch (error) {
      await discardUnreadBody(req, this.deps.maxZipBytes);
      throw error;
    }
    if (credits > 0) return credits;
    await discardUnreadBody(req, this.deps.maxZipBytes);
    throw AppError.paymentRequired(OUT_OF_CREDITS_MESSAGE);
  }

  /** Sweeper: a job left reserving (billing did not answer) is reserved now, or removed when refused. */
  async resumeReservation(job: JobDocument): Promise<JobDocument | null> {
    try {
      return await this.reserve(job);
    } catch (error) {
      if (!isPaymentRequired(error)) throw error;
      await this.deps.jobs.remove(job.uuid);
      if (job.upload_key) await this.discardUpload(job.upload_key);
      return null;
    }
  }

  /** One batch reservation (images × per-product count), all or nothing; retried with the same content. */
  private async reserve(job: JobDocument): Promise<JobDocument | null> {
    const total = job.products.length * job.images_per_product;
    const reservation = await this.deps.billing.reserveBatchCredits({
      body: {
        userId: job.user_id,
        batchUuid: job.uuid,
        items: job.products.map((product) => ({
          generationUuid: product.generation_uuid,
          count: job.images_per_product,
        })),
        description: `Batch creation (${job.products.length} products, ${total} images)`,
      },
    });
    return this.deps.jobs.markReserved(
      job.uuid,
      reservation.watermark,
      new Date(this.deps.now().getTime() + this.deps.leaseMs),
    );
  }

  /** The request's fields checked by the contract's schema, with the file described as multer would. */
  private parseFields(fields: Record<string, string>, file: unknown): BulkZipBody {
    const body: Record<string, unknown> = { zipFile: file, numGenerates: fields.numGenerates };
    if (fields.presets !== undefined) body.presets = fields.presets;
    if (fields.checkUncertain !== undefined) body.checkUncertain = fields.checkUncertain;
    const result = validateRequest(routes.createBulkJob, { body });
    if (!result.ok) throw AppError.badRequest(result.message, { issues: result.issues });
    return result.data.body as BulkZipBody;
  }

  private async discardUpload(key: string): Promise<void> {
    try {
      await this.deps.objectStore.remove(key);
    } catch (error) {
      this.deps.logger.warn({ err: error, key }, 'refused upload could not be removed');
    }
  }
}
