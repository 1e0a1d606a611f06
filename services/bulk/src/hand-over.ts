import type { Logger, ObjectStore, CrashPoint } from '@productgen/service-kit';
import type { BillingClient } from './clients/billing';
import type { GenerationClient } from './clients/generation';
import type { JobRepository } from './data/job-repository';
import type { JobDocument, ProductDocument } from './data/models';
import type { CrashStep } from './config';
import { readImage } from './intake/zip-intake';
import { StoredZip } from './intake/stored-zip';
import type { ProgressTracker } from './progress';

export interface HandOverDeps {
  jobs: JobRepository;
  objectStore: ObjectStore;
  generation: GenerationClient;
  billing: BillingClient;
  progress: ProgressTracker;
  logger: Logger;
  now: () => Date;
  concurrency: number;
  leaseMs: number;
  maxImageBytes: number;
  crashPoint: CrashPoint<CrashStep>;
}

const UNREADABLE_PRODUCT_MESSAGE = 'The photo could not be read from the zip file; its credits were given back.';

/**
 * Hands a reserved job's products to generation, one generation each (a few at once). The job holds a lease while
 * this runs; a process that stops leaves the lease to lapse and the sweeper resumes with the products still
 * waiting. Handing a product over twice is harmless: generation answers a known generation_uuid as before.
 */
export class HandOver {
  constructor(private readonly deps: HandOverDeps) {}

  private leaseUntil(): Date {
    return new Date(this.deps.now().getTime() + this.deps.leaseMs);
  }

  /** Resumes a job whose hand-over stopped; false when another process holds it. */
  async resume(job: JobDocument): Promise<boolean> {
    const claimed = await this.deps.jobs.claimHandOver(job.uuid, this.deps.now(), this.leaseUntil());
    if (!claimed) return false;
    await this.run(claimed);
    return true;
  }

  /** Runs the hand-over of a job whose lease this process holds. */
  async run(job: JobDocument): Promise<void> {
    const { jobs, objectStore, logger } = this.deps;
    const waiting = job.products.filter((product) => product.state === 'waiting');
    if (waiting.length > 0 && job.upload_key) {
      const zip = await StoredZip.open(objectStore, job.upload_key);
      try {
        const entries = await zip.listEntries();
        let next = 0;
        const worker = async () => {
          while (next < waiting.length) {
            const product = waiting[next]!;
            next += 1;
            const entry = entries[product.entry_index];
            let image: Buffer | undefined;
            try {
              if (entry) image = await readImage(zip, entry, product.name, this.deps.maxImageBytes);
            } catch (error) {
              logger.warn({ err: error, job: job.uuid, product: product.name }, 'photo unreadable at hand-over');
            }
            if (image) await this.handOne(job, product, image);
            else await this.refuseOne(job, product);
            await jobs.renewLease(job.uuid, this.leaseUntil());
          }
        };
        await Promise.all(Array.from({ length: Math.min(this.deps.concurrency, waiting.length) }, worker));
      } finally {
        zip.close();
      }
    }
    if (job.upload_key) await objectStore.remove(job.upload_key);
    await jobs.markHandedOver(job.uuid);
    logger.info({ job: job.uuid, products: job.products.length }, 'batch handed over to generation');
    await this.deps.progress.refreshByUuid(job.uuid);
  }

  private async handOne(job: JobDocument, product: ProductDocument, image: Buffer): Promise<void> {
    const answer = await this.deps.generation.api.createBulkGeneration({
      body: {
        userId: job.user_id,
        bulk_job_uuid: job.uuid,
        generation_uuid: product.generation_uuid,
        original_filename: product.name,
        image: image.toString('base64'),
        count: job.images_per_product,
        presets: job.presets,
        watermark: job.watermark,
      },
    });
    if (product.index > 0) this.deps.crashPoint('mid-hand-over');
    const state = answer.outcome === 'queued' ? 'handed' : answer.outcome;
    await this.deps.jobs.setProductState(job.uuid, product.index, state, answer.error);
  }

  /** The photo was checked at upload, so this is storage trouble: the product fails and its credits go back. */
  private async refuseOne(job: JobDocument, product: ProductDocument): Promise<void> {
    for (let index = 0; index < job.images_per_product; index += 1) {
      await this.deps.billing.giveBackCredit({
        body: { userId: job.user_id, generationUuid: product.generation_uuid, imageIndex: index, reason: 'failed' },
      });
    }
    await this.deps.jobs.setProductState(job.uuid, product.index, 'failed', UNREADABLE_PRODUCT_MESSAGE);
  }
}
