import path from 'node:path';
import type { Entry } from 'yauzl';
import { BATCH_PHOTO_EXTENSIONS, batchPhotoKey } from '@productgen/contracts';
import type { Logger, ObjectStore, CrashPoint } from '@productgen/service-kit';
import type { BillingClient } from './clients/billing';
import type { GenerationClient } from './clients/generation';
import type { JobRepository } from './data/job-repository';
import type { JobDocument, ProductDocument } from './data/models';
import type { CrashStep } from './config';
import { readImage } from './intake/zip-intake';
import { isStorageUnavailable, StoredZip } from './intake/stored-zip';
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

/** The extension a product's photo is stored under (its name's, which the intake allowed). */
function photoExtension(name: string): string {
  const extension = path.extname(name).slice(1).toLowerCase();
  return (BATCH_PHOTO_EXTENSIONS as readonly string[]).includes(extension) ? extension : 'jpg';
}

const UNREADABLE_PRODUCT_MESSAGE = 'The photo could not be read from the zip file; its credits were given back.';

/**
 * Hands a reserved job's products to generation, one generation each (a few at once). The job holds a lease while
 * this runs; a process that stops leaves the lease to lapse and the sweeper resumes with the products still
 * waiting. Handing a product over twice is harmless: generation answers a known generation_uuid as before.
 * A process that was only slow and finds its lease claimed by another stops at once and leaves the job to it.
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

  /**
   * Runs the hand-over of a job whose lease this process holds (`job` as the claim returned it). A product is
   * refused only when its zip entry itself is bad; when the object store or generation fails, the hand-over stops
   * (the products not handed over stay waiting), gives its lease up and throws, and the sweeper resumes it on a
   * later pass. A lease lost to another process is not trouble: the hand-over just stops.
   */
  async run(job: JobDocument): Promise<void> {
    const { jobs, objectStore, logger } = this.deps;
    const holder = job.lease_holder;
    if (!holder) throw new Error(`hand-over of batch ${job.uuid} run without claiming its lease`);
    const waiting = job.products.filter((product) => product.state === 'waiting');
    if (waiting.length > 0 && job.upload_key) {
      let leaseHeld: boolean;
      try {
        leaseHeld = await this.handOverAll(job, holder, job.upload_key, waiting);
      } catch (error) {
        // Given up so the next sweep resumes at once; if even that fails, the lease lapses on its own.
        await jobs.releaseLease(job.uuid, holder).catch(() => undefined);
        throw error;
      }
      if (!leaseHeld) return this.leaveToNewHolder(job);
    }
    // The lease was claimed or renewed just now (each worker renews after its product), and every product is handed
    // over: no other process reads the photos while the removal takes less than a lease. One that claims the lapsed
    // lease later finds nothing left to hand over, removes what is left (removal is idempotent) and finishes the job.
    if (job.upload_key) {
      for (const product of job.products) {
        await objectStore.remove(batchPhotoKey(job.user_id, job.uuid, product.index, photoExtension(product.name)));
      }
      await objectStore.remove(job.upload_key);
    }
    if (!(await jobs.markHandedOver(job.uuid, holder))) return this.leaveToNewHolder(job);
    logger.info({ job: job.uuid, products: job.products.length }, 'batch handed over to generation');
    await this.deps.progress.refreshByUuid(job.uuid);
  }

  private leaveToNewHolder(job: JobDocument): void {
    this.deps.logger.warn(
      { job: job.uuid },
      'batch hand-over lease lapsed and another process claimed it; this one stops and leaves the job to it',
    );
  }

  /**
   * A few products at once; the first failure, or a lost lease, stops every worker from taking another product.
   * Resolves false when the lease was lost. A product's own writes need no lease, as two holders may both make them:
   * its state changes only from waiting, billing gives a credit back once, and a second hand-over is harmless.
   */
  private async handOverAll(
    job: JobDocument,
    holder: string,
    uploadKey: string,
    waiting: ProductDocument[],
  ): Promise<boolean> {
    const zip = await StoredZip.open(this.deps.objectStore, uploadKey);
    try {
      const entries = await zip.listEntries();
      let next = 0;
      let stopped = false;
      let leaseHeld = true;
      const worker = async () => {
        while (next < waiting.length && !stopped) {
          const product = waiting[next]!;
          next += 1;
          try {
            const image = await this.readProductImage(zip, entries[product.entry_index], job, product);
            if (image) await this.handOne(job, product, image);
            else await this.refuseOne(job, product);
            if (!(await this.deps.jobs.renewLease(job.uuid, holder, this.leaseUntil()))) {
              leaseHeld = false;
              stopped = true;
            }
          } catch (error) {
            stopped = true;
            throw error;
          }
        }
      };
      const outcomes = await Promise.allSettled(
        Array.from({ length: Math.min(this.deps.concurrency, waiting.length) }, worker),
      );
      const failure = outcomes.find((outcome) => outcome.status === 'rejected');
      if (failure) throw failure.reason;
      return leaseHeld;
    } finally {
      zip.close();
    }
  }

  /**
   * The product's photo, or undefined when its entry is bad (missing, larger than allowed, not as its directory
   * says). Storage trouble is thrown: the photo was checked at upload, so it is not the product's fault.
   */
  private async readProductImage(
    zip: StoredZip,
    entry: Entry | undefined,
    job: JobDocument,
    product: ProductDocument,
  ): Promise<Buffer | undefined> {
    if (!entry) return undefined;
    try {
      return await readImage(zip, entry, product.name, this.deps.maxImageBytes);
    } catch (error) {
      if (isStorageUnavailable(error)) throw error;
      this.deps.logger.warn({ err: error, job: job.uuid, product: product.name }, 'photo unreadable at hand-over');
      return undefined;
    }
  }

  /**
   * The product goes to generation by reference: its photo is stored on its own under the batch's prefix
   * (`batchPhotoKey`) and generation reads it from there. The photos go with the upload once every product is with
   * generation. A hand-over that stops and resumes keeps a photo an earlier attempt stored: generation may still be
   * reading it for that attempt, and the embedded S3 server (unlike MinIO) replaces an object in place, so a rewrite
   * could hand generation a torn photo, fail the product and give its credits back while the first attempt renders it
   * (found by the resilience suite under load).
   */
  private async handOne(job: JobDocument, product: ProductDocument, image: Buffer): Promise<void> {
    const { objectStore } = this.deps;
    const key = batchPhotoKey(job.user_id, job.uuid, product.index, photoExtension(product.name));
    if ((await objectStore.stat(key))?.size !== image.length) {
      await objectStore.putObject(key, image, { contentType: 'application/octet-stream', size: image.length });
    }
    const answer = await this.deps.generation.api.createBulkGeneration({
      body: {
        userId: job.user_id,
        bulk_job_uuid: job.uuid,
        generation_uuid: product.generation_uuid,
        original_filename: product.name,
        photo: { bucket: objectStore.bucket, key },
        count: job.images_per_product,
        presets: job.presets,
        watermark: job.watermark,
        hold_uncertain: job.check_uncertain,
      },
    });
    if (product.index > 0) this.deps.crashPoint('mid-hand-over');
    if (answer.outcome === 'held') {
      await this.deps.jobs.setProductState(job.uuid, product.index, 'needs_check', null, {
        reasons: answer.check_reasons ?? [],
        category: answer.category,
        object: answer.object ?? null,
        held_at: this.deps.now(),
        deciding_since: null,
        outcome: null,
      });
      return;
    }
    const state = answer.outcome === 'queued' ? 'handed' : answer.outcome;
    await this.deps.jobs.setProductState(job.uuid, product.index, state, answer.error);
  }

  /** The photo's entry is bad although it passed the upload's checks: the product fails, its credits go back. */
  private async refuseOne(job: JobDocument, product: ProductDocument): Promise<void> {
    for (let index = 0; index < job.images_per_product; index += 1) {
      await this.deps.billing.giveBackCredit({
        body: { userId: job.user_id, generationUuid: product.generation_uuid, imageIndex: index, reason: 'failed' },
      });
    }
    await this.deps.jobs.setProductState(job.uuid, product.index, 'failed', UNREADABLE_PRODUCT_MESSAGE);
  }
}
