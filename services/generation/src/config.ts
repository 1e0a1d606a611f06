import { z } from 'zod';
import {
  amqpConfig,
  baseConfig,
  serviceAuthConfig,
  envFields,
  mongoConfig,
  s3Config,
  telemetryConfig,
} from '@productgen/service-kit';
import { int8KernelKinds } from '@productgen/studio-engine';

/** Steps a fault test may stop a creation at (GENERATION_CRASH_AT; see service-kit's crash-point). */
export const crashSteps = ['after-reserve', 'before-queue', 'mid-render', 'before-give-back'] as const;
export type CrashStep = (typeof crashSteps)[number];

/**
 * Environment of the generation service. MONGO_URL, AMQP_URL and the S3 variables are optional here because the
 * embedded launcher hands the service a connection, a bus and an object store; main.ts and worker.ts require them.
 */
export const generationConfigSchema = z
  .object({
    ...baseConfig,
    // Optional here only because the offline tools (benches, contact sheet) read this config for the models and never
    // serve: main.ts and worker.ts require it, and createGenerationService refuses to start without it.
    SERVICE_AUTH_SECRET: serviceAuthConfig.SERVICE_AUTH_SECRET.optional(),
    PORT: envFields.port(8083),
    MONGO_URL: mongoConfig.MONGO_URL.optional(),
    MONGO_DB_NAME: envFields.nonEmpty().default('generation'),
    AMQP_URL: amqpConfig.AMQP_URL.optional(),
    S3_ENDPOINT: s3Config.S3_ENDPOINT.optional(),
    S3_ACCESS_KEY: s3Config.S3_ACCESS_KEY.optional(),
    S3_SECRET_KEY: s3Config.S3_SECRET_KEY.optional(),
    S3_BUCKET: s3Config.S3_BUCKET.default('productgen-generation'),
    /** Bulk's bucket, where a batch's photos wait for the hand-over (read only, keys under a batch's prefix). */
    BATCH_PHOTOS_BUCKET: envFields.nonEmpty().default('productgen-bulk'),
    ...telemetryConfig,
    BILLING_URL: envFields.httpUrl().default('http://127.0.0.1:8082'),
    AUTH_URL: envFields.httpUrl().default('http://127.0.0.1:8081'),
    /** Time limit of each call to billing and auth. */
    INTERNAL_TIMEOUT_MS: envFields.positiveInt(5000),
    /** Where the model files are; relative paths are taken from the repository root. */
    MODELS_DIR: envFields.nonEmpty().default('models/cache'),
    /** Filled into MODELS_DIR at start when a file is missing there (the machine's shared model folder). */
    SHARED_MODELS_DIR: envFields.nonEmpty().default('../shared/models'),
    /** in-process: this process also renders (embedded mode); off: only the API (workers run as worker.ts). */
    GENERATION_WORKER: z.enum(['in-process', 'off'], { error: 'expected in-process or off' }).default('in-process'),
    /**
     * Generations one worker renders at once (the queue's prefetch). One generation's stages run one after another
     * (model, pixel thread, libvips), so alone it keeps 2 cores ~80 % busy; with two, one composes while the other's
     * model runs (a 36-product batch in embedded mode: 142 → 125 s, cores 80 → 92 % busy). A lone creation is as
     * fast either way.
     */
    WORKER_PREFETCH: envFields.positiveInt(2),
    /**
     * Threads each model run may use (onnxruntime's intra-op threads). Unset: one per core of the machine, which in a
     * container is the host's, not the pod's CPU limit. Where several model-running processes share the cores (the
     * API and its workers on one node), cores ÷ processes spends less CPU per image: a 36-product batch on 2 cores
     * with the API and two workers as processes took 64.3 s with 1 against 68.8 s unset, 6 % less CPU per image.
     */
    INFERENCE_THREADS: envFields.positiveInt().optional(),
    /**
     * The integer kernels of the quantized models (`models/int8-kernels.ts`). auto: u8s8 where the CPU has VNNI
     * (exact and fastest there), u8u8 elsewhere (u8s8 saturates without VNNI). Both give the same answers; forcing
     * u8s8 on a CPU without VNNI is for showing what goes wrong, never for production.
     */
    INT8_KERNELS: z.enum(['auto', ...int8KernelKinds], { error: 'expected auto, u8s8 or u8u8' }).default('auto'),
    /** Deliveries of a render job before it is given up (its credits go back). */
    WORKER_MAX_DELIVERIES: envFields.positiveInt(5),
    /** How often the sweeper runs (every API and worker process runs one; they never take the same generation). */
    SWEEP_INTERVAL_MS: envFields.positiveInt(30_000),
    /** A creation still reserving credits after this is settled by asking billing (must exceed the call limit). */
    RESERVING_TIMEOUT_MS: envFields.positiveInt(60_000),
    /** A queued job unconfirmed by the broker after this is published again (the outbox). */
    PUBLISH_GRACE_MS: envFields.positiveInt(30_000),
    /** A queued or rendering generation with no progress for this long is queued again (or given up). */
    STUCK_AFTER_MS: envFields.positiveInt(600_000),
    /** Times a stuck generation's job is queued again before its unfinished images are given up and refunded. */
    MAX_REQUEUES: z.coerce
      .number({ error: 'expected a number' })
      .int('expected a whole number')
      .min(0, 'expected 0 or more')
      .default(2),
    /** How long one sweeper holds a generation it works on; also the wait before an unconfirmed give-back is retried. */
    SWEEP_LEASE_MS: envFields.positiveInt(60_000),
    /** Fault tests only: the process kills itself at this step of a creation (refused in production). */
    GENERATION_CRASH_AT: z.enum(crashSteps, { error: `expected one of ${crashSteps.join(', ')}` }).optional(),
    /** Largest accepted upload after base64 decoding. */
    MAX_UPLOAD_BYTES: envFields.positiveInt(12 * 1024 * 1024),
    /** Largest accepted picture (width × height); bigger ones are refused before decoding. */
    MAX_INPUT_PIXELS: envFields.positiveInt(40_000_000),
    /** Long side of the finished images (after the ×4 super-resolution fix); at least 2048. */
    OUTPUT_SIZE: envFields.positiveInt(2048).refine((value) => value >= 2048, 'must be at least 2048'),
    /** Long side of the first, unfixed image shown while the fixes run. */
    PREVIEW_SIZE: envFields.positiveInt(1024),
    /**
     * Photos one user may have analysed per window (each runs the models and stores the photo and its matte). A
     * seller uploading by hand makes a few a minute; batches are analysed through bulk, not here.
     */
    ANALYSIS_LIMIT_PER_WINDOW: envFields.positiveInt(40),
    ANALYSIS_LIMIT_WINDOW_MINUTES: envFields.positiveInt(10),
    /** An analysed photo nobody created from is removed (record and files, by the sweeper) after this. */
    ANALYSED_TTL_HOURS: envFields.positiveInt(24),
    /** Cut-out corrections one user may save per window (each decodes and stores a mask). */
    CUTOUT_SAVE_LIMIT_PER_WINDOW: envFields.positiveInt(60),
    CUTOUT_SAVE_LIMIT_WINDOW_MINUTES: envFields.positiveInt(10),
  })
  // The creator's own call to billing must be over before the sweeper asks billing what became of it.
  .refine((config) => config.RESERVING_TIMEOUT_MS > 2 * config.INTERNAL_TIMEOUT_MS, {
    path: ['RESERVING_TIMEOUT_MS'],
    error: 'must be more than twice INTERNAL_TIMEOUT_MS',
  })
  .refine((config) => config.GENERATION_CRASH_AT === undefined || config.NODE_ENV !== 'production', {
    path: ['GENERATION_CRASH_AT'],
    error: 'is for fault tests and refused when NODE_ENV=production',
  });

export type GenerationConfig = z.output<typeof generationConfigSchema>;

const required = {
  ...serviceAuthConfig,
  MONGO_URL: mongoConfig.MONGO_URL,
  AMQP_URL: amqpConfig.AMQP_URL,
  S3_ENDPOINT: s3Config.S3_ENDPOINT,
  S3_ACCESS_KEY: s3Config.S3_ACCESS_KEY,
  S3_SECRET_KEY: s3Config.S3_SECRET_KEY,
};

/** main.ts: a process on its own needs a real database, broker and object store. */
export const distributedGenerationConfigSchema = generationConfigSchema.safeExtend(required);

/** worker.ts renders only; the API process runs with GENERATION_WORKER=off. */
export const workerConfigSchema = generationConfigSchema.safeExtend(required);
