import { z } from 'zod';
import {
  categoryIdSchema,
  entityIdSchema,
  imageIndexSchema,
  isoDateTimeSchema,
  numGeneratesSchema,
  presetIdsSchema,
  userIdSchema,
  uuidSchema,
} from './entities';
import { limits } from './limits';
import { purchasablePackageIdSchema } from './packages';
import { ContractValidationError, parseWithIssues, type ValidationIssue } from './validation';

/*
 * Messages between services (RabbitMQ topics). Payloads carry business keys only; message id and trace
 * context travel in headers. Every consumer is idempotent on the business key named in each comment.
 *
 * Flows:
 * - signup: auth → user.signed_up → billing grants the signup bonus once (sourceRef signup:<userId>).
 * - single generation: generation → credits.reservation_requested → billing debits one credit per image
 *   (gen:<uuid>:<index>) → credits.reserved (with the watermark decision) | credits.reservation_rejected;
 *   generation then queues generation.requested for its renderer, which reports generation.image_completed,
 *   generation.completed or generation.failed. A failed image's credit goes back through
 *   credits.refund_requested (refund:<uuid>:<index>).
 * - batch: bulk → bulk.job_created, then one bulk.product_queued per product → generation runs the single
 *   flow per product (or generation.skipped when no chosen preset fits its category) → bulk counts
 *   generation.completed / failed / skipped towards generations_done.
 * - payment: billing → payment.completed (after the webhook credits the session); every ledger change also
 *   sends credits.balance_changed so auth can keep user.credits current.
 */

export const topics = {
  userSignedUp: 'user.signed_up',
  creditsReservationRequested: 'credits.reservation_requested',
  creditsReserved: 'credits.reserved',
  creditsReservationRejected: 'credits.reservation_rejected',
  creditsRefundRequested: 'credits.refund_requested',
  creditsRefunded: 'credits.refunded',
  creditsBalanceChanged: 'credits.balance_changed',
  paymentCompleted: 'payment.completed',
  generationRequested: 'generation.requested',
  generationImageCompleted: 'generation.image_completed',
  generationCompleted: 'generation.completed',
  generationFailed: 'generation.failed',
  generationSkipped: 'generation.skipped',
  bulkJobCreated: 'bulk.job_created',
  bulkProductQueued: 'bulk.product_queued',
} as const;

export type Topic = (typeof topics)[keyof typeof topics];
export const allTopics: readonly Topic[] = Object.values(topics);

const at = isoDateTimeSchema;
const bulkJobUuid = uuidSchema.nullable();
const creditCount = z.number().int().nonnegative();

/** The look of one variation: a style of the studio renderer plus the seed that makes it repeatable. */
export const variationStyleSchema = z.object({
  index: imageIndexSchema,
  /** Style id of the renderer, e.g. "marketplace-white". */
  style: z.string().min(1).max(100),
  /** 32-bit seed; the same (generation, index, style, seed) always renders the same image. */
  seed: z.number().int().min(0).max(0xffffffff),
  /** The style preset this variation came from, if any. */
  preset_id: entityIdSchema.nullable(),
});
export type VariationStyle = z.infer<typeof variationStyleSchema>;

export const messageSchemas = {
  /** Key: userId. */
  [topics.userSignedUp]: z.object({
    userId: userIdSchema,
    email: z.email(),
    name: z.string(),
    ref_code: z.string().nullable(),
    at,
  }),
  /** Key: generation_uuid. Billing debits `count` credits as gen:<uuid>:0..count-1, all or nothing. */
  [topics.creditsReservationRequested]: z.object({
    userId: userIdSchema,
    generation_uuid: uuidSchema,
    count: numGeneratesSchema,
    bulk_job_uuid: bulkJobUuid,
    at,
  }),
  /** Key: generation_uuid. `watermark` is true while the user has never bought credits. */
  [topics.creditsReserved]: z.object({
    userId: userIdSchema,
    generation_uuid: uuidSchema,
    count: numGeneratesSchema,
    balance_after: creditCount,
    watermark: z.boolean(),
    at,
  }),
  /** Key: generation_uuid. Nothing was debited. */
  [topics.creditsReservationRejected]: z.object({
    userId: userIdSchema,
    generation_uuid: uuidSchema,
    requested: numGeneratesSchema,
    balance: creditCount,
    reason: z.enum(['insufficient_credits']),
    at,
  }),
  /** Key: refund:<generation_uuid>:<image_index>; billing refunds only an image it debited. */
  [topics.creditsRefundRequested]: z.object({
    userId: userIdSchema,
    generation_uuid: uuidSchema,
    image_index: imageIndexSchema,
    origin: z.enum(['failed_image', 'user_request']),
    reason: z.string().max(limits.refundReasonMaxLength),
    at,
  }),
  /** Key: refund:<generation_uuid>:<image_index>. */
  [topics.creditsRefunded]: z.object({
    userId: userIdSchema,
    generation_uuid: uuidSchema,
    image_index: imageIndexSchema,
    amount: z.number().int().positive(),
    balance_after: creditCount,
    at,
  }),
  /** Key: (userId, version); `version` counts ledger entries, so a consumer keeps only the newest. */
  [topics.creditsBalanceChanged]: z.object({
    userId: userIdSchema,
    balance: creditCount,
    version: z.number().int().positive(),
    has_purchased: z.boolean(),
    at,
  }),
  /** Key: sessionId (the provider's checkout session). */
  [topics.paymentCompleted]: z.object({
    userId: userIdSchema,
    sessionId: z.string().min(1),
    packageId: purchasablePackageIdSchema,
    credits: z.number().int().positive(),
    amount_cents: z.number().int().nonnegative(),
    currency: z.string().regex(/^[a-z]{3}$/),
    at,
  }),
  /** Key: generation_uuid. One render job per generation, sent after the credits are reserved. */
  [topics.generationRequested]: z
    .object({
      userId: userIdSchema,
      generation_uuid: uuidSchema,
      count: numGeneratesSchema,
      category: categoryIdSchema.nullable(),
      /** Object-store key of the uploaded original. */
      original_object_key: z.string().min(1),
      original_filename: z.string().nullable(),
      variations: z.array(variationStyleSchema).min(1).max(limits.maxImagesPerGeneration),
      watermark: z.boolean(),
      bulk_job_uuid: bulkJobUuid,
      at,
    })
    .refine((job) => job.variations.length === job.count, {
      error: 'must hold one variation per image',
      path: ['variations'],
    }),
  /** Key: (generation_uuid, image_index). */
  [topics.generationImageCompleted]: z.object({
    userId: userIdSchema,
    generation_uuid: uuidSchema,
    image_index: imageIndexSchema,
    output_object_key: z.string().min(1),
    bulk_job_uuid: bulkJobUuid,
    at,
  }),
  /** Key: generation_uuid. Completed with at least one image; failed images were refunded. */
  [topics.generationCompleted]: z.object({
    userId: userIdSchema,
    generation_uuid: uuidSchema,
    images_completed: z.number().int().min(1).max(limits.maxImagesPerGeneration),
    images_failed: z
      .number()
      .int()
      .min(0)
      .max(limits.maxImagesPerGeneration - 1),
    thumbnail_object_key: z.string().nullable(),
    bulk_job_uuid: bulkJobUuid,
    at,
  }),
  /** Key: generation_uuid. No image was made; every reserved credit was refunded. */
  [topics.generationFailed]: z.object({
    userId: userIdSchema,
    generation_uuid: uuidSchema,
    error: z.string(),
    bulk_job_uuid: bulkJobUuid,
    at,
  }),
  /** Key: generation_uuid. A batch product no chosen preset fits: skipped, no credits used (SPEC §5). */
  [topics.generationSkipped]: z.object({
    userId: userIdSchema,
    generation_uuid: uuidSchema,
    bulk_job_uuid: uuidSchema,
    reason: z.enum(['category_mismatch', 'unreadable_image']),
    at,
  }),
  /** Key: bulk_job_uuid. */
  [topics.bulkJobCreated]: z.object({
    userId: userIdSchema,
    bulk_job_uuid: uuidSchema,
    generations_total: z.number().int().min(1).max(limits.maxBatchImages),
    images_per_product: numGeneratesSchema,
    presets: presetIdsSchema,
    at,
  }),
  /** Key: generation_uuid (chosen by bulk, so a redelivery names the same generation). */
  [topics.bulkProductQueued]: z.object({
    userId: userIdSchema,
    bulk_job_uuid: uuidSchema,
    generation_uuid: uuidSchema,
    product_index: z
      .number()
      .int()
      .min(0)
      .max(limits.maxBatchImages - 1),
    original_object_key: z.string().min(1),
    original_filename: z.string(),
    images_per_product: numGeneratesSchema,
    presets: presetIdsSchema,
    at,
  }),
} as const satisfies Record<Topic, z.ZodType>;

export type MessagePayload<T extends Topic> = z.output<(typeof messageSchemas)[T]>;

export function isTopic(value: string): value is Topic {
  return Object.prototype.hasOwnProperty.call(messageSchemas, value);
}

export type MessageParseResult<T extends Topic> =
  { success: true; data: MessagePayload<T> } | { success: false; issues: ValidationIssue[] };

/** Validates a payload against its topic's schema without throwing. */
export function safeParseMessage<T extends Topic>(topic: T, payload: unknown): MessageParseResult<T> {
  if (!isTopic(topic)) {
    return { success: false, issues: [{ location: 'message', path: '', message: `Unknown topic "${topic}"` }] };
  }
  const schema: z.ZodType = messageSchemas[topic];
  return parseWithIssues(schema, payload, 'message') as MessageParseResult<T>;
}

/** Validates a payload against its topic's schema; throws ContractValidationError when it does not fit. */
export function parseMessage<T extends Topic>(topic: T, payload: unknown): MessagePayload<T> {
  const result = safeParseMessage(topic, payload);
  if (!result.success) throw new ContractValidationError(result.issues, `Invalid ${topic} message`);
  return result.data;
}
