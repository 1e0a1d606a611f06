import { z } from 'zod';
import {
  categoryIdSchema,
  checkReasonSchema,
  entityIdSchema,
  generationSchema,
  numGeneratesSchema,
  presetIdsSchema,
  productNameSchema,
  stylePresetSchema,
  userIdSchema,
  uuidSchema,
} from '../entities';
import { defineInternalRoute } from './route';

/**
 * Where a batch photo waits for generation, in bulk's bucket: `batches/<userId>/<bulkJobUuid>/<index>.<ext>`. Bulk
 * writes it before the hand-over and removes it once generation has answered; generation reads only keys under the
 * batch's own prefix (its user's, its job's), never an arbitrary key.
 */
export const BATCH_PHOTO_EXTENSIONS = ['jpg', 'jpeg', 'png', 'webp'] as const;

export function batchPhotoPrefix(userId: string, bulkJobUuid: string): string {
  return `batches/${userId}/${bulkJobUuid}/`;
}

export function batchPhotoKey(userId: string, bulkJobUuid: string, index: number, extension: string): string {
  return `${batchPhotoPrefix(userId, bulkJobUuid)}${index}.${extension}`;
}

const batchPhotoName = new RegExp(`^(0|[1-9][0-9]{0,5})\\.(${BATCH_PHOTO_EXTENSIONS.join('|')})$`);

/** The key names a photo of this user's batch: exactly `batches/<userId>/<bulkJobUuid>/<index>.<ext>`. */
export function isBatchPhotoKey(key: string, userId: string, bulkJobUuid: string): boolean {
  const prefix = batchPhotoPrefix(userId, bulkJobUuid);
  return key.startsWith(prefix) && batchPhotoName.test(key.slice(prefix.length));
}

/** A batch photo by reference: the bucket and key bulk stored it under. */
export const batchPhotoRefSchema = z.object({
  bucket: z.string().min(3).max(63),
  key: z.string().min(1).max(1024),
});
export type BatchPhotoRef = z.infer<typeof batchPhotoRefSchema>;

/** The answer when a photo reference is not a photo of the request's own batch. */
export const NOT_A_BATCH_PHOTO_MESSAGE = "The photo is not one of this batch's photos.";

/*
 * Generation's internal endpoints, called by the bulk service (a batch creates one generation per product).
 * Generation serves them with service-kit `serveRoute`; bulk calls them through
 * `createInternalApiClient(generationInternalRoutes, ...)`.
 */

/**
 * POST /internal/bulk-generations: one batch product becomes a generation. Bulk has already reserved `count` credits
 * for it as gen:<generation_uuid>:0..count-1 (one batch reservation), so generation reserves nothing; it reads the
 * photo from bulk's bucket by reference (400 unless the key is under the batch's own prefix and the bucket the batch
 * photos' one; 404 when no such object), checks and stores it, names its category and queues the render. With presets, only those of the product's category
 * are used: none → `skipped`, fewer than `count` → the rest of the credits are given back (reason skipped). A photo
 * that fails the checks → `failed`, every credit given back. Idempotent by generation_uuid: a repeated call answers
 * what the first did.
 */
export const createBulkGenerationRequestSchema = z.object({
  userId: userIdSchema,
  bulk_job_uuid: uuidSchema,
  generation_uuid: uuidSchema,
  original_filename: z.string().min(1).max(255),
  /** The photo, by reference: bulk stored it at `batchPhotoKey(userId, bulk_job_uuid, index, ext)`. */
  photo: batchPhotoRefSchema,
  /** Credits reserved for this product (images per product). */
  count: numGeneratesSchema,
  presets: presetIdsSchema,
  /** The batch reservation's watermark decision. */
  watermark: z.boolean(),
  /**
   * "Check uncertain products before rendering": a product whose cut-out or category analysis is unsure of is
   * held (outcome `held`, credits still reserved) until bulk releases or drops it.
   */
  hold_uncertain: z.boolean().default(false),
});
export type CreateBulkGenerationRequest = z.infer<typeof createBulkGenerationRequestSchema>;

export const createBulkGenerationResponseSchema = z.object({
  generation_uuid: uuidSchema,
  outcome: z.enum(['queued', 'skipped', 'failed', 'held']),
  category: categoryIdSchema.nullable(),
  /** Images being made (0 when skipped or failed; those reserved when held). */
  images: z.number().int().min(0),
  error: z.string().nullable(),
  /** The product name analysis gave. */
  object: z.string().nullable().optional(),
  /** Why a held product waits for the seller's check. */
  check_reasons: z.array(checkReasonSchema).optional(),
});
export type CreateBulkGenerationResponse = z.infer<typeof createBulkGenerationResponseSchema>;

/** An object in generation's bucket, by reference. */
export const generationObjectRefSchema = z.object({
  bucket: z.string().min(3).max(63),
  key: z.string().min(1).max(1024),
});
export type GenerationObjectRef = z.infer<typeof generationObjectRefSchema>;

/**
 * What the downloads of a generation serve, by reference, for bulk's Download All to read from the object store
 * itself: the original, and for each image `GET /download/:id/image/:index` serves, the object it serves (the
 * finished image, else its base; a free user's unwatermarked base and a refunded image are never listed). Bulk
 * reads only the bucket it is configured with (its GENERATION_IMAGES_BUCKET).
 */
export const generationDownloadsSchema = z.object({
  original: generationObjectRefSchema,
  images: z.array(generationObjectRefSchema.extend({ index: z.number().int().min(0) })),
});
export type GenerationDownloads = z.infer<typeof generationDownloadsSchema>;

/** A batch's generation as bulk needs it: the public view plus the stored original's file extension. */
export const bulkGenerationSchema = generationSchema.extend({
  original_extension: z.enum(['jpg', 'png']),
  /** The product name (analysis's, or the seller's correction). */
  object: z.string().nullable().optional(),
  downloads: generationDownloadsSchema,
});
export type BulkGeneration = z.infer<typeof bulkGenerationSchema>;

export const bulkGenerationsParamsSchema = z.object({ userId: userIdSchema, bulkJobUuid: uuidSchema });
export const bulkGenerationsSchema = z.object({ generations: z.array(bulkGenerationSchema) });

/**
 * POST /internal/bulk-generations/:generationUuid/release: a held batch product renders, as analysed or with the
 * seller's corrections (mask, name, category), on the credits bulk reserved. Only a held generation can be released,
 * once: any other answers 409, so of two concurrent releases exactly one renders. A bad mask is 400.
 */
export const heldBulkGenerationParamsSchema = z.object({ generationUuid: uuidSchema });
export const releaseHeldBulkGenerationRequestSchema = z.object({
  userId: userIdSchema,
  mask: z.base64().optional(),
  object: productNameSchema.optional(),
  category: categoryIdSchema.optional(),
});
export const releaseHeldBulkGenerationResponseSchema = z.object({
  generation_uuid: uuidSchema,
  /** skipped: with presets, none fits the corrected category (its credits were given back). */
  outcome: z.enum(['queued', 'skipped']),
  images: z.number().int().min(0),
  credits_returned: z.number().int().min(0),
});

/** POST /internal/bulk-generations/:generationUuid/drop: a held product removed by the seller; its credits go back. */
export const dropHeldBulkGenerationRequestSchema = z.object({ userId: userIdSchema });
export const dropHeldBulkGenerationResponseSchema = z.object({
  generation_uuid: uuidSchema,
  credits_returned: z.number().int().min(0),
});

/**
 * POST /internal/bulk-generations/:generationUuid/redo: a finished batch product made again as a new generation
 * (`new_generation_uuid`, idempotent by it) from the same photo, with the seller's corrections (a bad mask is 400);
 * its credits, when it costs any, were reserved by bulk under the new uuid. Only a finished generation can be redone
 * (409 otherwise).
 */
export const redoBulkGenerationRequestSchema = releaseHeldBulkGenerationRequestSchema.extend({
  new_generation_uuid: uuidSchema,
  count: numGeneratesSchema,
  presets: presetIdsSchema,
  watermark: z.boolean(),
});
export const redoBulkGenerationResponseSchema = z.object({
  generation_uuid: uuidSchema,
  outcome: z.enum(['queued', 'skipped']),
  images: z.number().int().min(0),
});

/** GET /internal/users/:userId/style-presets?ids=a,b: the user's presets by id; any unknown or foreign one → 404. */
export const stylePresetsByIdQuerySchema = z.object({
  ids: z
    .string()
    .transform((value) => value.split(',').filter((part) => part.length > 0))
    .pipe(z.array(entityIdSchema).min(1).max(20)),
});
export const stylePresetsByIdParamsSchema = z.object({ userId: userIdSchema });
export const stylePresetsByIdSchema = z.object({ presets: z.array(stylePresetSchema) });

export const generationInternalRoutes = {
  createBulkGeneration: defineInternalRoute({
    id: 'createBulkGeneration',
    owner: 'generation',
    method: 'POST',
    path: '/internal/bulk-generations',
    summary: 'One batch product becomes a generation on credits bulk reserved (idempotent by generation_uuid).',
    request: { body: createBulkGenerationRequestSchema },
    response: createBulkGenerationResponseSchema,
    errorStatuses: [400, 404, 409, 503],
  }),
  listBulkGenerations: defineInternalRoute({
    id: 'listBulkGenerations',
    owner: 'generation',
    method: 'GET',
    path: '/internal/users/:userId/bulk-jobs/:bulkJobUuid/generations',
    summary: "A batch's generations with their status, images and the objects their downloads serve.",
    request: { params: bulkGenerationsParamsSchema },
    response: bulkGenerationsSchema,
  }),
  releaseHeldBulkGeneration: defineInternalRoute({
    id: 'releaseHeldBulkGeneration',
    owner: 'generation',
    method: 'POST',
    path: '/internal/bulk-generations/:generationUuid/release',
    summary: 'A held batch product renders, as analysed or corrected (exactly once).',
    request: { params: heldBulkGenerationParamsSchema, body: releaseHeldBulkGenerationRequestSchema },
    response: releaseHeldBulkGenerationResponseSchema,
    errorStatuses: [400, 404, 409, 413],
  }),
  dropHeldBulkGeneration: defineInternalRoute({
    id: 'dropHeldBulkGeneration',
    owner: 'generation',
    method: 'POST',
    path: '/internal/bulk-generations/:generationUuid/drop',
    summary: 'A held batch product removed from its batch; its credits are given back.',
    request: { params: heldBulkGenerationParamsSchema, body: dropHeldBulkGenerationRequestSchema },
    response: dropHeldBulkGenerationResponseSchema,
    errorStatuses: [404, 409],
  }),
  redoBulkGeneration: defineInternalRoute({
    id: 'redoBulkGeneration',
    owner: 'generation',
    method: 'POST',
    path: '/internal/bulk-generations/:generationUuid/redo',
    summary: 'A finished batch product made again as a new generation, corrected or not.',
    request: { params: heldBulkGenerationParamsSchema, body: redoBulkGenerationRequestSchema },
    response: redoBulkGenerationResponseSchema,
    errorStatuses: [400, 404, 409, 413],
  }),
  stylePresetsById: defineInternalRoute({
    id: 'stylePresetsById',
    owner: 'generation',
    method: 'GET',
    path: '/internal/users/:userId/style-presets',
    summary: "The user's style presets by id (404 naming an unknown one).",
    request: { params: stylePresetsByIdParamsSchema, query: stylePresetsByIdQuerySchema },
    response: stylePresetsByIdSchema,
    errorStatuses: [404],
  }),
} as const;
