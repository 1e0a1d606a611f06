import { z } from 'zod';
import { limits } from '@productgen/contracts';
import {
  amqpConfig,
  baseConfig,
  serviceAuthConfig,
  envFields,
  mongoConfig,
  s3Config,
  telemetryConfig,
} from '@productgen/service-kit';

/**
 * Steps a fault test may stop a hand-over at (BULK_CRASH_AT; see service-kit's crash-point). mid-hand-over:
 * generation has accepted the second product of a batch, and bulk has not yet recorded it (the first product is
 * recorded, the rest are still waiting).
 */
export const crashSteps = ['mid-hand-over'] as const;
export type CrashStep = (typeof crashSteps)[number];

/**
 * Environment of the bulk service. MONGO_URL, AMQP_URL and the S3 variables are optional here because the embedded
 * launcher hands the service a connection, a bus and an object store; main.ts requires them.
 */
export const bulkConfigSchema = z
  .object({
    ...baseConfig,
    ...serviceAuthConfig,
    PORT: envFields.port(8084),
    MONGO_URL: mongoConfig.MONGO_URL.optional(),
    MONGO_DB_NAME: envFields.nonEmpty().default('bulk'),
    AMQP_URL: amqpConfig.AMQP_URL.optional(),
    S3_ENDPOINT: s3Config.S3_ENDPOINT.optional(),
    S3_ACCESS_KEY: s3Config.S3_ACCESS_KEY.optional(),
    S3_SECRET_KEY: s3Config.S3_SECRET_KEY.optional(),
    S3_BUCKET: s3Config.S3_BUCKET.default('productgen-bulk'),
    /** Generation's bucket, read only: Download All reads the objects generation's list references there. */
    GENERATION_IMAGES_BUCKET: envFields.bucketName().default('productgen-generation'),
    ...telemetryConfig,
    BILLING_URL: envFields.httpUrl().default('http://127.0.0.1:8082'),
    GENERATION_URL: envFields.httpUrl().default('http://127.0.0.1:8083'),
    /** Time limit of each call to billing and generation (a product hand-over decodes and classifies one photo). */
    INTERNAL_TIMEOUT_MS: envFields.positiveInt(60_000),
    /** Largest accepted zip upload; a bigger one is cut off while streaming and answered 413. */
    MAX_ZIP_BYTES: envFields.positiveInt(limits.maxZipBytes),
    /** Most entries (files, folders, ignored ones) a zip may list; checked before anything is extracted. */
    MAX_ZIP_ENTRIES: envFields.positiveInt(2000),
    /** Largest image inside the zip (declared and actual bytes), as for a single upload. */
    MAX_IMAGE_BYTES: envFields.positiveInt(12 * 1024 * 1024),
    /** Largest sum of the images' declared sizes. */
    MAX_TOTAL_IMAGE_BYTES: envFields.positiveInt(1024 * 1024 * 1024),
    /** Largest compression ratio of an image entry: photos hardly compress, so a high ratio is a zip bomb. */
    MAX_COMPRESSION_RATIO: envFields.positiveInt(20),
    /** Largest picture (width × height) of an image, read from its header before decoding. */
    MAX_INPUT_PIXELS: envFields.positiveInt(40_000_000),
    /** Products handed to generation at once (each is decoded and classified there). */
    FANOUT_CONCURRENCY: envFields.positiveInt(2),
    /** How often active jobs are brought up to date from generation (messages bring most updates sooner). */
    PROGRESS_POLL_MS: envFields.positiveInt(5000),
    /** Messages bring one job up to date at most this often; those that come meanwhile share the next refresh. */
    PROGRESS_REFRESH_INTERVAL_MS: envFields.positiveInt(2000),
    /** A job's hand-over not renewed for this long belongs to a stopped process and is resumed. */
    FANOUT_LEASE_MS: envFields.positiveInt(60_000),
    /** Fault tests only: the process kills itself at this step of a hand-over (refused in production). */
    BULK_CRASH_AT: z.enum(crashSteps, { error: `expected one of ${crashSteps.join(', ')}` }).optional(),
  })
  .refine((config) => config.BULK_CRASH_AT === undefined || config.NODE_ENV !== 'production', {
    path: ['BULK_CRASH_AT'],
    error: 'is for fault tests and refused when NODE_ENV=production',
  });

export type BulkConfig = z.output<typeof bulkConfigSchema>;

/** main.ts: a process on its own needs a real database, broker and object store. */
export const distributedBulkConfigSchema = bulkConfigSchema.safeExtend({
  MONGO_URL: mongoConfig.MONGO_URL,
  AMQP_URL: amqpConfig.AMQP_URL,
  S3_ENDPOINT: s3Config.S3_ENDPOINT,
  S3_ACCESS_KEY: s3Config.S3_ACCESS_KEY,
  S3_SECRET_KEY: s3Config.S3_SECRET_KEY,
});
