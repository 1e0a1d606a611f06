import { z } from 'zod';
import {
  categoryIdSchema,
  entityIdSchema,
  imageIndexSchema,
  isoDateTimeSchema,
  numGeneratesSchema,
  userIdSchema,
  uuidSchema,
} from './entities';
import { limits } from './limits';
import { purchasablePackageIdSchema } from './packages';
import { ContractValidationError, parseWithIssues, type ValidationIssue } from './validation';

/*
 * Messages between services (RabbitMQ topics). Payloads carry business keys only; message id and trace
 * context travel in headers. Every consumer is idempotent on the business key named in each comment. Credits
 * move by internal HTTP calls to billing (contracts `billingInternalRoutes`), never by messages.
 *
 * Who publishes and who consumes (each topic has a publisher in the code):
 * - user.signed_up: auth, at a first sign-in → billing grants the signup bonus once (signup:<userId>).
 * - session.revoked: auth, at a logout → every gateway replica (each its own queue) forgets the session it may
 *   still hold as verified, so no replica accepts the key after the logout.
 * - credits.balance_changed: billing, after every ledger change → auth keeps user.credits current.
 * - credits.image_refunded: billing, once a user's refund of an image is applied (from the ledger's outbox, with
 *   the balance change) → generation withdraws the image: no longer listed or downloadable.
 * - payment.completed: billing, once per credited checkout session; no service consumes it today (it is the event
 *   for anything that reacts to a purchase, e.g. analytics).
 * - generation.requested: generation (creation and its outbox sweep), once the credits are reserved → the render
 *   worker renders the images.
 * - generation.image_completed: the render worker, per image → bulk records the image on its batch product.
 * - generation.completed / generation.failed: generation, when a generation settles (failed images' credits
 *   already given back) → auth clears the first-generation flag (completed), bulk records the product done (with
 *   the images made): a batch's progress is kept by bulk from these messages alone, never read back.
 */

export const topics = {
  userSignedUp: 'user.signed_up',
  sessionRevoked: 'session.revoked',
  creditsBalanceChanged: 'credits.balance_changed',
  creditsImageRefunded: 'credits.image_refunded',
  paymentCompleted: 'payment.completed',
  generationRequested: 'generation.requested',
  generationImageCompleted: 'generation.image_completed',
  generationCompleted: 'generation.completed',
  generationFailed: 'generation.failed',
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
  /**
   * Key: session_key_hash, the hex SHA-256 of the session key (what auth stores; the key itself never travels).
   */
  [topics.sessionRevoked]: z.object({
    userId: userIdSchema,
    session_key_hash: z.string().regex(/^[0-9a-f]{64}$/, 'expected the hex SHA-256 of the session key'),
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
  /** Key: (generation_uuid, image_index): a user's refund, granted once per image. */
  [topics.creditsImageRefunded]: z.object({
    userId: userIdSchema,
    generation_uuid: uuidSchema,
    image_index: imageIndexSchema,
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
    /**
     * The indexes of the images made, in order (a batch's progress and thumbnails, even when an image's own
     * image_completed was never sent: a worker stopped between storing it and announcing it). Absent from messages
     * sent before it existed.
     */
    image_indexes: z.array(imageIndexSchema).max(limits.maxImagesPerGeneration).optional(),
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
