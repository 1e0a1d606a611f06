import type { Express } from 'express';
import type { Connection } from 'mongoose';
import type { MessageBus, Subscription } from '@productgen/bus';
import { describeCpu } from '@productgen/host-cpu';
import {
  createCrashPoint,
  createServiceIdentity,
  periodicTask,
  recordInfo,
  UsageQuota,
  usageWindowModel,
  type Logger,
  type ObjectStore,
} from '@productgen/service-kit';
import { createGenerationApp } from './app';
import { BulkCreation } from './bulk-creation';
import { createAuthClient, type AuthClient } from './clients/auth';
import { createBillingClient, type BillingClient } from './clients/billing';
import type { GenerationConfig } from './config';
import { CreationFlow } from './creation';
import { GenerationRepository } from './data/generation-repository';
import { createModels } from './data/schemas';
import { PresetRepository } from './data/preset-repository';
import { analysisQuotaMessage, cutoutSaveQuotaMessage } from './domain/quota-messages';
import { RenderWorker } from './messaging/render-worker';
import { subscribeToRefunds } from './messaging/refund-consumer';
import { createStudioEngine, quantizedModels } from '@productgen/studio-engine';
import { Settlement } from './settlement';
import { Sweeper } from './sweeper';

export interface GenerationServiceDeps {
  config: GenerationConfig;
  logger: Logger;
  /** The service's own database (dbName 'generation'); the caller opens and closes it. */
  mongo: Connection;
  /** The caller creates and closes the bus. */
  bus: MessageBus;
  /** Originals and generated images; the bucket is created at start when missing. */
  objectStore: ObjectStore;
  /**
   * Bulk's bucket (BATCH_PHOTOS_BUCKET), read for a batch's photos handed over by reference. Without it, batch
   * photos are read from `objectStore` (one bucket for both, as some tests run).
   */
  batchPhotos?: ObjectStore;
  /** Billing's internal API; by default a client of BILLING_URL (as bulk's deps: config for URLs, a client to replace one). */
  billing?: BillingClient;
  /** Auth's internal API (brand colours of the shop); by default a client of AUTH_URL. */
  auth?: AuthClient;
  now?: () => Date;
  /** Text of the free tier's watermark (the product name). */
  watermarkText?: string;
}

export interface GenerationService {
  app: Express;
  /** Starts the in-process render worker when GENERATION_WORKER=in-process. */
  start(): Promise<void>;
  /**
   * Stops the worker, letting the job in hand finish, then the studio engine's threads; leaves the connection, bus
   * and store to their owner.
   */
  stop(): Promise<void>;
  /** The worker's job handler, for worker.ts and tests. */
  worker: RenderWorker;
  creation: CreationFlow;
  /** Finishes stuck generations; `start` runs it every SWEEP_INTERVAL_MS, tests may call `sweep` directly. */
  sweeper: Sweeper;
}

/** Generations of each kind one sweep handles; the rest wait for the next sweep. */
const SWEEP_BATCH = 50;

/**
 * One factory for every way of running: the embedded launcher and main.ts call it for the API (with or without
 * the in-process worker); worker.ts calls it and starts only the worker. A missing model file stops it here,
 * naming the command that fixes it.
 */
export async function createGenerationService(deps: GenerationServiceDeps): Promise<GenerationService> {
  const { config, bus, objectStore } = deps;
  const logger = deps.logger.child({ component: 'generation' });
  const now = deps.now ?? (() => new Date());
  const timeoutMs = config.INTERNAL_TIMEOUT_MS;
  if (!config.SERVICE_AUTH_SECRET) {
    throw new Error('SERVICE_AUTH_SECRET is required: the secret the services sign and verify their calls with');
  }
  const identity = createServiceIdentity(config.SERVICE_AUTH_SECRET, 'generation');
  const billing = deps.billing ?? createBillingClient({ baseUrl: config.BILLING_URL, timeoutMs, identity });
  const auth = deps.auth ?? createAuthClient({ baseUrl: config.AUTH_URL, timeoutMs, identity });

  const engine = await createStudioEngine({
    models: config,
    render: {
      outputSize: config.OUTPUT_SIZE,
      previewSize: config.PREVIEW_SIZE,
      watermarkText: deps.watermarkText ?? 'ProductGen',
    },
  });
  const kernelsByModel = quantizedModels.map((model) => {
    const { kernels, reason } = engine.int8Kernels[model];
    return { model, kernels, reason };
  });
  logger.info({ int8Kernels: kernelsByModel, cpu: describeCpu() }, `models: ${engine.describeModels()}`);
  recordInfo('generation_model_int8_kernels', 'Integer kernels each quantized model runs on, and why', kernelsByModel);
  const models = await createModels(deps.mongo);
  const generations = new GenerationRepository(models.generations);
  const presets = new PresetRepository(models.stylePresets);
  await objectStore.ensureBucket();

  const crashPoint = createCrashPoint(config.GENERATION_CRASH_AT);
  const creation = new CreationFlow({
    generations,
    presets,
    objectStore,
    bus,
    billing,
    auth,
    engine,
    uploadLimits: { maxBytes: config.MAX_UPLOAD_BYTES, maxPixels: config.MAX_INPUT_PIXELS },
    logger,
    now,
    timing: {
      analysedTtlMs: config.ANALYSED_TTL_HOURS * 60 * 60_000,
      reservingTimeoutMs: config.RESERVING_TIMEOUT_MS,
      publishGraceMs: config.PUBLISH_GRACE_MS,
      stuckAfterMs: config.STUCK_AFTER_MS,
    },
    crashPoint,
  });
  const settlement = new Settlement({
    generations,
    billing,
    bus,
    logger: logger.child({ component: 'settlement' }),
    now,
    crashPoint,
    giveBackRetryMs: config.SWEEP_LEASE_MS,
  });
  const worker = new RenderWorker({
    generations,
    objectStore,
    settlement,
    bus,
    studio: engine.renderer,
    logger: logger.child({ component: 'render-worker' }),
    now,
    maxDeliveries: config.WORKER_MAX_DELIVERIES,
    stuckAfterMs: config.STUCK_AFTER_MS,
    crashPoint,
  });
  const sweeper = new Sweeper(
    {
      generations,
      creation,
      settlement,
      billing,
      bus,
      objectStore,
      logger: logger.child({ component: 'sweeper' }),
      now,
    },
    { leaseMs: config.SWEEP_LEASE_MS, maxRequeues: config.MAX_REQUEUES, batch: SWEEP_BATCH },
  );

  const bulk = new BulkCreation({
    generations,
    creation,
    objectStore,
    batchPhotos: deps.batchPhotos ?? objectStore,
    billing,
    engine,
    uploadLimits: { maxBytes: config.MAX_UPLOAD_BYTES, maxPixels: config.MAX_INPUT_PIXELS },
    logger: logger.child({ component: 'bulk-creation' }),
    now,
    publishGraceMs: config.PUBLISH_GRACE_MS,
  });

  const usageWindows = await usageWindowModel(deps.mongo);
  const quotas = {
    analysis: new UsageQuota(
      usageWindows,
      'analysis',
      { max: config.ANALYSIS_LIMIT_PER_WINDOW, windowMs: config.ANALYSIS_LIMIT_WINDOW_MINUTES * 60_000 },
      analysisQuotaMessage,
    ),
    cutoutSaves: new UsageQuota(
      usageWindows,
      'cutout-save',
      { max: config.CUTOUT_SAVE_LIMIT_PER_WINDOW, windowMs: config.CUTOUT_SAVE_LIMIT_WINDOW_MINUTES * 60_000 },
      cutoutSaveQuotaMessage,
    ),
  };
  const app = createGenerationApp({
    serviceIdentity: identity,
    creation,
    bulk,
    generations,
    presets,
    objectStore,
    quotas,
    now,
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

  let subscription: Subscription | undefined;
  let refunds: Subscription | undefined;
  const sweeps = periodicTask({
    name: 'sweep',
    intervalMs: config.SWEEP_INTERVAL_MS,
    logger,
    run: async () => {
      const report = await sweeper.sweep();
      const { deadLetters, reserving, stuck, expired, errors } = report;
      if (deadLetters + Object.keys(reserving).length + Object.keys(stuck).length + expired + errors > 0) {
        logger.info(report, 'sweep finished stuck generations and removed expired photos');
      }
    },
  });
  return {
    app,
    worker,
    creation,
    sweeper,
    async start() {
      sweeps.start();
      refunds ??= await subscribeToRefunds(bus, generations, logger.child({ component: 'refunds' }), now);
      if (subscription || config.GENERATION_WORKER !== 'in-process') return;
      subscription = await worker.subscribe(config.WORKER_PREFETCH);
      logger.info({ prefetch: config.WORKER_PREFETCH }, 'in-process render worker started');
    },
    async stop() {
      await sweeps.stop();
      await refunds?.close();
      refunds = undefined;
      const closing = subscription;
      subscription = undefined;
      await closing?.close();
      await engine.close();
    },
  };
}
