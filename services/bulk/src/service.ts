import type { Express } from 'express';
import type { Connection } from 'mongoose';
import type { MessageBus, Subscription } from '@productgen/bus';
import {
  createCrashPoint,
  createObjectStore,
  createServiceIdentity,
  periodicTask,
  type Logger,
  type ObjectStore,
} from '@productgen/service-kit';
import { createBulkApp } from './app';
import { BatchIntake } from './batch-intake';
import { BatchReview } from './batch-review';
import { createBillingClient, type BillingClient } from './clients/billing';
import { createGenerationClient, type GenerationClient } from './clients/generation';
import type { BulkConfig } from './config';
import { JobRepository } from './data/job-repository';
import { createModels } from './data/models';
import { HandOver } from './hand-over';
import { subscribeToProgress } from './messaging/progress-consumer';
import { ProgressTracker } from './progress';

export interface BulkServiceDeps {
  config: BulkConfig;
  logger: Logger;
  /** The service's own database (dbName 'bulk'); the caller opens and closes it. */
  mongo: Connection;
  /** The caller creates and closes the bus. */
  bus: MessageBus;
  /** Uploaded zips until their products are handed over; the bucket is created at start when missing. */
  objectStore: ObjectStore;
  /**
   * Generation's bucket (GENERATION_IMAGES_BUCKET), read only by Download All. Without it, a store of that bucket on
   * the configured S3 endpoint (the launcher and main.ts give the S3 variables), else `objectStore` (one bucket for
   * both, as some tests run).
   */
  generationImages?: ObjectStore;
  /** Internal APIs: base URLs, or clients (tests may pass their own). */
  billing?: BillingClient;
  generation?: GenerationClient;
  now?: () => Date;
}

export interface BulkService {
  app: Express;
  /** Subscribes to generation's outcome messages and starts the sweeper (stalled hand-overs, progress polls). */
  start(): Promise<void>;
  /** Stops both; leaves the connection, bus and store to their owner. */
  stop(): Promise<void>;
  /** One sweep now (tests and tools): resumes stalled jobs and refreshes active ones. */
  sweep(): Promise<void>;
  jobs: JobRepository;
}

/** Generation's bucket on the configured S3 endpoint; undefined when no endpoint is configured. */
function generationImagesStore(config: BulkConfig): ObjectStore | undefined {
  if (!config.S3_ENDPOINT || !config.S3_ACCESS_KEY || !config.S3_SECRET_KEY) return undefined;
  return createObjectStore({
    endpoint: config.S3_ENDPOINT,
    accessKey: config.S3_ACCESS_KEY,
    secretKey: config.S3_SECRET_KEY,
    bucket: config.GENERATION_IMAGES_BUCKET,
  });
}

/** One factory for every way of running: the embedded launcher and main.ts both call it. */
export async function createBulkService(deps: BulkServiceDeps): Promise<BulkService> {
  const { config, bus, objectStore } = deps;
  const logger = deps.logger.child({ component: 'bulk' });
  const now = deps.now ?? (() => new Date());
  const timeoutMs = config.INTERNAL_TIMEOUT_MS;
  const identity = createServiceIdentity(config.SERVICE_AUTH_SECRET, 'bulk');
  const billing = deps.billing ?? createBillingClient({ baseUrl: config.BILLING_URL, timeoutMs, identity });
  const generation = deps.generation ?? createGenerationClient({ baseUrl: config.GENERATION_URL, timeoutMs, identity });

  const generationImages = deps.generationImages ?? generationImagesStore(config) ?? objectStore;

  const models = await createModels(deps.mongo);
  const jobs = new JobRepository(models.jobs);
  await objectStore.ensureBucket();

  const progress = new ProgressTracker({
    jobs,
    generation,
    logger,
    now,
    refreshIntervalMs: config.PROGRESS_REFRESH_INTERVAL_MS,
  });
  const handOver = new HandOver({
    jobs,
    objectStore,
    generation,
    billing,
    progress,
    logger,
    now,
    concurrency: config.FANOUT_CONCURRENCY,
    leaseMs: config.FANOUT_LEASE_MS,
    maxImageBytes: config.MAX_IMAGE_BYTES,
    crashPoint: createCrashPoint(config.BULK_CRASH_AT),
  });
  const intake = new BatchIntake({
    jobs,
    objectStore,
    billing,
    generation,
    handOver,
    logger,
    now,
    maxZipBytes: config.MAX_ZIP_BYTES,
    zipLimits: {
      maxEntries: config.MAX_ZIP_ENTRIES,
      maxImageBytes: config.MAX_IMAGE_BYTES,
      maxTotalImageBytes: config.MAX_TOTAL_IMAGE_BYTES,
      maxCompressionRatio: config.MAX_COMPRESSION_RATIO,
      maxPixels: config.MAX_INPUT_PIXELS,
    },
    leaseMs: config.FANOUT_LEASE_MS,
  });

  const review = new BatchReview({
    jobs,
    billing,
    generation,
    progress,
    logger,
    now,
    decisionLeaseMs: config.FANOUT_LEASE_MS,
  });

  const app = createBulkApp({
    serviceIdentity: identity,
    intake,
    review,
    jobs,
    progress,
    generationImages,
    logger,
    readiness: {
      mongo: async () => {
        if (!deps.mongo.db) throw new Error('mongo connection is not open');
        await deps.mongo.db.command({ ping: 1 });
      },
      bus: () => bus.ping(),
      objects: () => objectStore.ping(),
    },
  });

  async function sweep(): Promise<void> {
    for (const job of await jobs.findStalled(now(), 20)) {
      // One job's trouble (storage still down, billing not answering) leaves the others' turn and the refreshes.
      try {
        if (job.stage === 'reserving') {
          const reserved = await intake.resumeReservation(job);
          if (reserved) await handOver.run(reserved); // the reservation's own lease: no claim needed
        } else {
          await handOver.resume(job);
        }
      } catch (error) {
        logger.warn({ err: error, job: job.uuid }, 'stalled batch not resumed yet; trying again on the next sweep');
      }
    }
    await review.sweepOverdue();
    for (const job of await jobs.findActive(50)) await progress.refresh(job);
  }

  let subscription: Subscription | undefined;
  const sweeps = periodicTask({ name: 'batch sweep', intervalMs: config.PROGRESS_POLL_MS, run: sweep, logger });

  return {
    app,
    jobs,
    sweep,
    async start() {
      subscription ??= await subscribeToProgress(bus, progress);
      sweeps.start();
    },
    async stop() {
      await sweeps.stop();
      const closing = subscription;
      subscription = undefined;
      await closing?.close();
    },
  };
}
