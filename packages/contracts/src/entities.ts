import { z } from 'zod';
import { categoryIds, UNKNOWN_CATEGORY_MESSAGE } from './categories';
import { limits } from './limits';
import { packageIdSchema, packageTierSchema, purchasablePackageIdSchema } from './packages';

/*
 * Entities of SPEC §3 as zod schemas. Custom error messages are predicates without the field name
 * ("must be between 1 and 5"): `formatIssues` puts the field path in front, giving "numGenerates must be
 * between 1 and 5", and the same schema reads well wherever it is nested.
 */

// ---------------------------------------------------------------------------------------------- building blocks

/** Required text, trimmed, 1..max characters after trimming. */
export function trimmedText(maxLength: number) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be text') })
    .trim()
    .min(1, { error: 'must not be blank' })
    .max(maxLength, { error: `must be at most ${maxLength} characters` });
}

/**
 * Whole number in [min, max] with one message for every way of missing it. `coerce` accepts numeric text too,
 * for query strings, path params and multipart fields.
 */
export function intInRange(min: number, max: number, options: { coerce?: boolean } = {}) {
  const rangeMessage = `must be between ${min} and ${max}`;
  const typeMessage = `must be a whole number between ${min} and ${max}`;
  const number = options.coerce ? z.coerce.number : z.number;
  return number({ error: (issue) => (issue.input === undefined ? 'is required' : typeMessage) })
    .int({ error: typeMessage })
    .min(min, { error: rangeMessage })
    .max(max, { error: rangeMessage });
}

/** Opaque database id (MongoDB ObjectId hex, or any other short token). */
export const entityIdSchema = z
  .string({ error: 'must be an id' })
  .min(1, { error: 'must not be empty' })
  .max(128, { error: 'must be at most 128 characters' })
  .regex(/^[A-Za-z0-9_-]+$/, { error: 'must be an id made of letters, digits, "-" or "_"' });

/** generation_uuid and bulk_job_uuid are RFC 9562 UUIDs (services create them with crypto.randomUUID()). */
export const uuidSchema = z.uuid({ error: 'must be a valid UUID' });

/** Timestamps travel as ISO 8601 strings, which is what JSON.stringify makes of a Date. */
export const isoDateTimeSchema = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' });

/** Image and download addresses: absolute (presigned object URL) or relative to the API origin. */
export const assetUrlSchema = z.string().min(1);

export const userIdSchema = entityIdSchema;

export const categoryIdSchema = z
  .enum(categoryIds, {
    // One sentence for any id outside the list, the create screen's wording: the gateway answers with it first.
    error: (issue) => (issue.input === undefined ? 'is required' : UNKNOWN_CATEGORY_MESSAGE),
  })
  .meta({ description: 'Product category id, e.g. "fashion".' });

/** Index of a generated image inside its generation. */
export const imageIndexSchema = intInRange(0, limits.maxImagesPerGeneration - 1);

export const numGeneratesSchema = intInRange(limits.minImagesPerGeneration, limits.maxImagesPerGeneration);

export const presetIdsSchema = z
  .array(entityIdSchema, { error: 'must be a list of style preset ids' })
  .max(limits.maxPresetsPerGeneration, {
    error: `can hold at most ${limits.maxPresetsPerGeneration} style presets`,
  })
  .refine((ids) => new Set(ids).size === ids.length, { error: 'must not name the same style preset twice' });

const dataUrlPrefix = /^data:[^;,]*;base64,/;

/** Base64 image; a data-URL prefix is tolerated and removed so both client habits work. */
export const base64ImageSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a base64-encoded image') })
  .max(limits.maxBase64ImageChars, { error: 'is too large (resize the image before uploading)' })
  .transform((value) => value.replace(dataUrlPrefix, ''))
  .pipe(z.base64({ error: 'must be a base64-encoded image' }).min(1, { error: 'must not be empty' }));

export const paginationQuerySchema = z.object({
  page: intInRange(1, 1_000_000, { coerce: true }).default(1),
  pageSize: intInRange(1, limits.maxPageSize, { coerce: true }).default(limits.pageSize),
});
export type PaginationQuery = z.infer<typeof paginationQuerySchema>;

/** `{items, total}` page of a list (DESIGN §8). */
export function pageOf<Item extends z.ZodType>(item: Item) {
  return z.object({ items: z.array(item), total: z.number().int().nonnegative() });
}

// ---------------------------------------------------------------------------------------------- errors

/** Every error leaves a service as `{code, error}` (SPEC §8, DESIGN §4); `code` is the HTTP status. */
export const apiErrorSchema = z.object({
  code: z.number().int(),
  error: z.string(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

export const successSchema = z.object({ success: z.literal(true) });

// ---------------------------------------------------------------------------------------------- users

export const shopContextEntrySchema = z.object({
  category_id: categoryIdSchema,
  label: z.string(),
});
export type ShopContextEntry = z.infer<typeof shopContextEntrySchema>;

export const userFlagsSchema = z.object({
  is_first_generation: z.boolean(),
  showSiteUrlTooltip: z.boolean(),
});
export type UserFlags = z.infer<typeof userFlagsSchema>;

export const userSchema = z.object({
  id: userIdSchema,
  name: z.string(),
  // Settings shows first and last name (SPEC §2) while §3 lists only `name`: the identity provider's parts.
  given_name: z.string().optional(),
  family_name: z.string().optional(),
  email: z.email(),
  /** Avatar URL; empty when the identity provider has none. */
  picture: z.string(),
  credits: z.number().int().nonnegative(),
  /**
   * True until billing has reported this account's balance: a new account's signup bonus is granted through a
   * message (user.signed_up → billing → credits.balance_changed), so clients fetch the user again while it is true.
   */
  credits_pending: z.boolean().optional(),
  /** The shop's website, or empty. */
  site_url: z.string(),
  shop_context: z.array(shopContextEntrySchema),
  flags: userFlagsSchema,
});
export type User = z.infer<typeof userSchema>;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

export const userSettingsSchema = z.object({
  site_url: z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a web address or empty') })
    .trim()
    .max(2048, { error: 'must be at most 2048 characters' })
    .refine((value) => value === '' || isHttpUrl(value), {
      error: 'must be a web address starting with http:// or https://, or empty',
    })
    .meta({ description: 'Website of the shop (http or https), or empty to clear it.', format: 'uri' }),
});
export type UserSettings = z.infer<typeof userSettingsSchema>;

/** Free-form settings metadata (SPEC §3), bounded so one user cannot store an unbounded document. */
export const userMetadataSchema = z
  .record(z.string().min(1).max(100), z.unknown(), { error: 'must be an object' })
  .refine((value) => Object.keys(value).length <= limits.maxUserMetadataKeys, {
    error: `must have at most ${limits.maxUserMetadataKeys} keys`,
  });
export type UserMetadata = z.infer<typeof userMetadataSchema>;

export const tooltipDismissalSchema = z.object({
  name: trimmedText(limits.tooltipNameMaxLength).meta({ examples: ['enter_site_url'] }),
});
export type TooltipDismissal = z.infer<typeof tooltipDismissalSchema>;

export const referralSourceSchema = z.object({
  // "Other" sends the user's own text, so any text up to the limit is accepted.
  source: trimmedText(limits.referralSourceMaxLength),
});
export type ReferralSource = z.infer<typeof referralSourceSchema>;

export const hasSeenReferralFormSchema = z.object({ hasSeen: z.boolean() });

// ---------------------------------------------------------------------------------------------- categories and analysis

export const categorySchema = z.object({
  id: categoryIdSchema,
  name: z.string(),
});
export type Category = z.infer<typeof categorySchema>;

export const analysisResultSchema = z.object({
  category: categoryIdSchema,
  /** Product name, e.g. "coffee mug". */
  object: z.string(),
  generation_uuid: uuidSchema,
});
export type AnalysisResult = z.infer<typeof analysisResultSchema>;

/** The product's name as the seller types it. */
export const productNameSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be text') })
  .trim()
  .min(1, { error: 'must not be blank' })
  .max(limits.productNameMaxLength, { error: `must be at most ${limits.productNameMaxLength} characters` });

/** The seller's corrections of an analysis before Create: the product's name, its category, or both. */
export const analysisCorrectionSchema = z
  .object({
    object: productNameSchema.optional(),
    category: categoryIdSchema.optional(),
  })
  .refine((value) => value.object !== undefined || value.category !== undefined, {
    error: 'must change the product name, the category or both',
  });
export type AnalysisCorrection = z.infer<typeof analysisCorrectionSchema>;

/**
 * The cut-out of an analysed photo as a mask over the photo (the analysis size, at most 1024 px a side): an 8-bit
 * grayscale PNG in base64, 255 where the product is kept and 0 where the background is removed.
 */
export const cutoutSchema = z.object({
  generation_uuid: uuidSchema,
  mask: z.base64(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** How far the automatic cut-out can be trusted, 0 to 1. */
  confidence: z.number().min(0).max(1),
  /** The automatic cut-out is doubtful: the screen says so and opens the brush. */
  low_confidence: z.boolean(),
  /** The seller corrected the mask. */
  corrected: z.boolean(),
});
export type Cutout = z.infer<typeof cutoutSchema>;

/** The seller's corrected mask: a PNG of the stored mask's size (the answer to GET gives it). */
export const cutoutSaveSchema = z.object({
  mask: z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a base64-encoded PNG') })
    .max(Math.ceil(limits.maxMaskBytes / 3) * 4, {
      error: `is too large: at most ${limits.maxMaskBytes / 1024} KB`,
    })
    .transform((value) => value.replace(dataUrlPrefix, ''))
    .pipe(z.base64({ error: 'must be a base64-encoded PNG' }).min(1, { error: 'must not be empty' })),
});
export type CutoutSave = z.infer<typeof cutoutSaveSchema>;

// ---------------------------------------------------------------------------------------------- generations

export const generationStatusValues = ['pending', 'processing', 'completed', 'failed'] as const;
export const generationStatusSchema = z.enum(generationStatusValues, {
  error: `must be one of ${generationStatusValues.join(', ')}`,
});
export type GenerationStatusValue = z.infer<typeof generationStatusSchema>;

export const generatedImageSchema = z.object({
  id: entityIdSchema,
  input_url: assetUrlSchema,
  output_url: assetUrlSchema,
  metadata: z.object({
    /** One flag per post-processing fix (upscale, sharpen, watermark); any false means still running. */
    fixes_done: z.array(z.boolean()),
  }),
});
export type GeneratedImage = z.infer<typeof generatedImageSchema>;

export const generationSchema = z.object({
  id: entityIdSchema,
  generation_uuid: uuidSchema,
  created_at: isoDateTimeSchema,
  images: z.array(generatedImageSchema),
  metadata: z.object({
    /** Null until a batch product has been analysed. */
    category: categoryIdSchema.nullable(),
    num_images: z.number().int().min(0).max(limits.maxImagesPerGeneration),
    status: generationStatusSchema,
    error: z.string().nullable(),
  }),
  original_image_url: assetUrlSchema,
  /** Null for single uploads, which arrive as base64 without a name. */
  original_filename: z.string().nullable(),
});
export type Generation = z.infer<typeof generationSchema>;

export const generationStatusResponseSchema = z.object({
  analyzed: z.boolean(),
  images: z.array(generatedImageSchema),
  gen_error: z.string().nullable(),
  status: generationStatusSchema,
  has_watermark: z.boolean(),
});
export type GenerationStatusResponse = z.infer<typeof generationStatusResponseSchema>;

/** Answer to POST /imageGen and /imageGenFromId (not shown in the SPEC): the uuid to poll. */
export const generationStartedSchema = z.object({
  generation_uuid: uuidSchema,
  status: generationStatusSchema,
});
export type GenerationStarted = z.infer<typeof generationStartedSchema>;

/** Requests that choose presets produce one image per preset, so the count must match (SPEC §5). */
export function presetsMatchCount(value: { numGenerates: number; presets?: readonly string[] | undefined }): boolean {
  return !value.presets || value.presets.length === 0 || value.presets.length === value.numGenerates;
}
export const presetsMismatchMessage = 'must equal the number of style presets chosen';

export const imageGenRequestSchema = z.object({
  base64str: base64ImageSchema,
  numGenerates: numGeneratesSchema,
});
export type ImageGenRequest = z.infer<typeof imageGenRequestSchema>;

export const imageGenFromIdRequestSchema = z
  .object({
    /** The generation_uuid returned by image analysis. */
    id: uuidSchema,
    numGenerates: numGeneratesSchema,
    presets: presetIdsSchema.optional(),
  })
  .refine(presetsMatchCount, { error: presetsMismatchMessage, path: ['numGenerates'] });
export type ImageGenFromIdRequest = z.infer<typeof imageGenFromIdRequestSchema>;

export const analyzeImageRequestSchema = z.object({
  /** Base64 without the data-URL prefix; a prefix is tolerated. */
  image: base64ImageSchema,
  /**
   * The photo's file name as the seller chose it, when the browser has one: a product noun in it ("blue-dress.jpg")
   * weighs in the category and names the product. Optional; a name over 255 characters is refused.
   */
  filename: z.string().max(255, 'Please choose a file whose name is at most 255 characters long.').optional(),
});
export type AnalyzeImageRequest = z.infer<typeof analyzeImageRequestSchema>;

// ---------------------------------------------------------------------------------------------- bulk jobs

export const bulkJobStatusValues = ['pending', 'processing', 'completed', 'failed'] as const;
export const bulkJobStatusSchema = z.enum(bulkJobStatusValues, {
  error: `must be one of ${bulkJobStatusValues.join(', ')}`,
});
export type BulkJobStatus = z.infer<typeof bulkJobStatusSchema>;

/**
 * Where a batch's products are, each counted once: done (its images made, or skipped or removed with its credits
 * back), waiting for the seller's check, rendering (on its way or being made) and failed (no image; credits back).
 */
export const bulkJobCountsSchema = z.object({
  done: z.number().int().nonnegative(),
  waiting_for_check: z.number().int().nonnegative(),
  rendering: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
});
export type BulkJobCounts = z.infer<typeof bulkJobCountsSchema>;

export const bulkJobSummarySchema = z.object({
  bulk_job_uuid: uuidSchema,
  status: bulkJobStatusSchema,
  generations_done: z.number().int().nonnegative(),
  generations_total: z.number().int().nonnegative(),
  created_at: isoDateTimeSchema,
  thumbnails: z.array(assetUrlSchema),
  has_watermark: z.boolean(),
  /** The bulk service always sends it; optional so answers recorded before it existed still parse. */
  counts: bulkJobCountsSchema.optional(),
});
export type BulkJobSummary = z.infer<typeof bulkJobSummarySchema>;

/** A batch product as the job page needs it to offer a redo: its position, generation, name and price. */
export const bulkJobProductSchema = z.object({
  index: z.number().int().nonnegative(),
  generation_uuid: uuidSchema,
  filename: z.string(),
  /** The product name analysis (or the seller) gave, when known. */
  object: z.string().nullable(),
  /** Its next redo costs nothing (the first one, or any of a product the machine flagged). */
  redo_free: z.boolean(),
  /** Credits its next redo uses (0 when free; otherwise the batch's images per product). */
  redo_credits: z.number().int().nonnegative(),
});
export type BulkJobProduct = z.infer<typeof bulkJobProductSchema>;

export const bulkJobSchema = bulkJobSummarySchema.extend({
  generations: z.array(generationSchema),
  /** The bulk service always sends it; optional so answers recorded before it existed still parse. */
  products: z.array(bulkJobProductSchema).optional(),
});
export type BulkJob = z.infer<typeof bulkJobSchema>;

/** Why the machine is unsure of a batch product: its cut-out, its category, or both. */
export const checkReasonValues = ['cutout', 'category'] as const;
export const checkReasonSchema = z.enum(checkReasonValues);
export type CheckReason = z.infer<typeof checkReasonSchema>;

/** A batch product waiting for the seller's check ("Needs your check"), not rendered until checked. */
export const bulkCheckProductSchema = z.object({
  /** The product's position in the batch (the zip's order); names it in the check routes. */
  index: z.number().int().nonnegative(),
  generation_uuid: uuidSchema,
  /** The photo's file name in the zip. */
  filename: z.string(),
  /** The product name and category analysis gave (what "Looks right" renders with). */
  object: z.string().nullable(),
  category: categoryIdSchema.nullable(),
  reasons: z.array(checkReasonSchema),
  original_image_url: assetUrlSchema,
  /** When it renders as it is if nobody checks it. */
  render_after: isoDateTimeSchema,
});
export type BulkCheckProduct = z.infer<typeof bulkCheckProductSchema>;

export const bulkChecksSchema = z.object({ products: z.array(bulkCheckProductSchema) });
export type BulkChecks = z.infer<typeof bulkChecksSchema>;

export const bulkCheckActionValues = ['looks_right', 'render_anyway', 'fix'] as const;

/**
 * The seller's decision on a product waiting for check: "Looks right" and "Render anyway" render it as analysed;
 * a fix renders it with the brush's mask (a PNG of the cut-out's size), a product name and/or a category.
 */
export const bulkCheckDecisionSchema = z
  .object({
    action: z.enum(bulkCheckActionValues, { error: `must be one of ${bulkCheckActionValues.join(', ')}` }),
    mask: cutoutSaveSchema.shape.mask.optional(),
    object: productNameSchema.optional(),
    category: categoryIdSchema.optional(),
  })
  .refine(
    (value) =>
      (value.action === 'fix') ===
      (value.mask !== undefined || value.object !== undefined || value.category !== undefined),
    { error: 'a fix must change the cut-out, the product name or the category, and only a fix may', path: ['action'] },
  );
export type BulkCheckDecision = z.infer<typeof bulkCheckDecisionSchema>;

/**
 * A finished batch product made again, corrected (the brush's mask, a name, a category) or as it is. Its new images
 * replace the old ones in the job and Download All. The first redo of a product, and any redo of a product the
 * machine flagged for check, is free; a further one costs as a creation.
 */
export const bulkRedoRequestSchema = z.object({
  mask: cutoutSaveSchema.shape.mask.optional(),
  object: productNameSchema.optional(),
  category: categoryIdSchema.optional(),
});
export type BulkRedoRequest = z.infer<typeof bulkRedoRequestSchema>;

export const bulkRedoAnswerSchema = z.object({
  index: z.number().int().nonnegative(),
  /** The product's new generation (its images replace the old ones). */
  generation_uuid: uuidSchema,
  /** Credits this redo took: 0 when free. */
  credits_charged: z.number().int().nonnegative(),
});
export type BulkRedoAnswer = z.infer<typeof bulkRedoAnswerSchema>;

export const bulkProductParamsSchema = z.object({
  id: uuidSchema,
  index: z.coerce
    .number()
    .int()
    .min(0)
    .max(limits.maxBatchImages - 1),
});

export const bulkCheckAnswerSchema = z.object({
  index: z.number().int().nonnegative(),
  /** rendering: it went to generation; removed: its credits were given back. */
  state: z.enum(['rendering', 'skipped', 'removed']),
  credits_returned: z.number().int().nonnegative(),
});
export type BulkCheckAnswer = z.infer<typeof bulkCheckAnswerSchema>;

/** Comma-joined status filter of GET /image-gen/bulk-jobs, parsed to a list. */
export const bulkJobStatusFilterSchema = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part.length > 0),
  )
  .pipe(
    z.array(
      z.enum(bulkJobStatusValues, {
        error: `must be a comma-separated list of ${bulkJobStatusValues.join(', ')}`,
      }),
    ),
  );

const zipMimeTypes = ['application/zip', 'application/x-zip-compressed', 'application/octet-stream', 'multipart/x-zip'];

/** A file part of a multipart request as multer describes it; the owner checks the zip's magic bytes. */
export const uploadedZipFileSchema = z
  .object(
    {
      originalname: z.string(),
      mimetype: z.string().refine((type) => zipMimeTypes.includes(type.toLowerCase()), {
        error: 'Please upload a valid zip file.',
      }),
      size: z
        .number()
        .int()
        .min(1, { error: 'must not be an empty file' })
        .max(limits.maxZipBytes, { error: `must be at most ${limits.maxZipBytes / (1024 * 1024)} MB` }),
    },
    { error: (issue) => (issue.input === undefined ? 'is required (one zip file)' : 'must be a zip file') },
  )
  .loose();
export type UploadedZipFile = z.infer<typeof uploadedZipFileSchema>;

/** Multipart fields arrive as text; `presets` is a JSON list sent only when non-empty (SPEC §5). */
const presetsJsonFieldSchema = z
  .string()
  .transform((value, ctx) => {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON list of style preset ids' });
      return z.NEVER;
    }
  })
  .pipe(presetIdsSchema)
  .meta({ description: 'JSON list of style preset ids, e.g. ["p1","p2"]; sent only when presets are chosen.' });

export const bulkZipRequestSchema = z
  .object({
    zipFile: uploadedZipFileSchema,
    numGenerates: intInRange(limits.minImagesPerGeneration, limits.maxImagesPerGeneration, { coerce: true }),
    presets: presetsJsonFieldSchema.optional(),
    /** "Check uncertain products before rendering": on unless sent as false. */
    checkUncertain: z
      .enum(['true', 'false'], { error: 'must be true or false' })
      .optional()
      .transform((value) => value !== 'false'),
  })
  .refine(presetsMatchCount, { error: presetsMismatchMessage, path: ['numGenerates'] });
export type BulkZipRequest = z.infer<typeof bulkZipRequestSchema>;

export const bulkJobCreatedResponseSchema = z.object({ bulk_job_uuid: uuidSchema });

/**
 * Row of the Past Creations table (GET /records). The SPEC does not show its fields; these are the table's
 * columns (Category, Images, Created) plus what See Details and Request Refund need.
 */
const recordBase = {
  category: categoryIdSchema.nullable(),
  num_images: z.number().int().nonnegative(),
  created_at: isoDateTimeSchema,
  thumbnail_url: assetUrlSchema.nullable(),
};
export const recordItemSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('single'), id: uuidSchema, status: generationStatusSchema, ...recordBase }),
  z.object({ type: z.literal('bulk'), id: uuidSchema, status: bulkJobStatusSchema, ...recordBase }),
]);
export type RecordItem = z.infer<typeof recordItemSchema>;

// ---------------------------------------------------------------------------------------------- style presets

export const stylePresetSchema = z.object({
  id: entityIdSchema,
  preset_name: z.string(),
  /** Category id the preset applies to. */
  category_name: categoryIdSchema,
});
export type StylePreset = z.infer<typeof stylePresetSchema>;

export const stylePresetSaveSchema = z.object({
  generation_uuid: uuidSchema,
  image_index: imageIndexSchema,
  preset_name: trimmedText(limits.presetNameMaxLength),
});
export type StylePresetSave = z.infer<typeof stylePresetSaveSchema>;

export const stylePresetListSchema = z.object({
  success: z.boolean(),
  presets: z.array(stylePresetSchema),
  error: z.string().optional(),
});
export type StylePresetList = z.infer<typeof stylePresetListSchema>;

// ---------------------------------------------------------------------------------------------- credits and payments

export const transactionTypeSchema = z.enum(['increase', 'decrease']);
export type TransactionType = z.infer<typeof transactionTypeSchema>;

export const creditRecordSchema = z.object({
  id: entityIdSchema,
  created_at: isoDateTimeSchema,
  description: z.string(),
  /** generation_uuid the entry belongs to; null for purchases and the signup bonus. */
  generation_id: z.string().nullable(),
  transaction_type: transactionTypeSchema,
  /** Always positive; `transaction_type` gives the direction. */
  amount: z.number().int().positive(),
  balance_after: z.number().int().nonnegative(),
});
export type CreditRecord = z.infer<typeof creditRecordSchema>;

export const checkoutRequestSchema = z.object({ package: purchasablePackageIdSchema });
export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;

export const checkoutSessionSchema = z.object({
  sessionId: z.string().min(1),
  /** Hosted checkout page to send the browser to (Stripe's, or the dev checkout in embedded mode). */
  url: z.string().optional(),
});
export type CheckoutSession = z.infer<typeof checkoutSessionSchema>;

export const paymentCheckRequestSchema = z.object({ sessionId: z.string().min(1).optional() });
export const paymentCheckResponseSchema = z.object({
  paid: z.boolean(),
  credits: z.number().int().nonnegative(),
});

export const paymentStatusSchema = z.enum(['pending', 'paid', 'failed', 'expired']);
export type PaymentStatus = z.infer<typeof paymentStatusSchema>;

/** Payment record (fields not shown in the SPEC): one per checkout session. */
export const paymentRecordSchema = z.object({
  id: entityIdSchema,
  created_at: isoDateTimeSchema,
  package: packageIdSchema,
  package_name: z.string(),
  amount_cents: z.number().int().nonnegative(),
  /** ISO 4217, lower case as Stripe writes it. */
  currency: z.string().regex(/^[a-z]{3}$/),
  credits: z.number().int().nonnegative(),
  status: paymentStatusSchema,
  provider_session_id: z.string(),
});
export type PaymentRecord = z.infer<typeof paymentRecordSchema>;

export const refundRequestSchema = z.object({
  generationUuid: uuidSchema,
  imageIndex: imageIndexSchema,
  refundReason: trimmedText(limits.refundReasonMaxLength),
});
export type RefundRequest = z.infer<typeof refundRequestSchema>;

/** Answer to a refund request: a refunded image gives its credit back once; asking again changes nothing. */
export const refundResponseSchema = z.object({
  success: z.literal(true),
  status: z.enum(['refunded', 'already_refunded']),
  credits: z.number().int().nonnegative(),
});
export type RefundResponse = z.infer<typeof refundResponseSchema>;

// ---------------------------------------------------------------------------------------------- analytics

export const analyticsEventSchema = z.object({
  en: trimmedText(limits.analyticsEventNameMaxLength),
  do: z.record(z.string(), z.unknown(), { error: 'must be an object' }).optional(),
});
export type AnalyticsEvent = z.infer<typeof analyticsEventSchema>;

/** The `do` of a page-view event (SPEC §7). */
export const pageViewDataSchema = z.object({
  path: z.string(),
  full_path: z.string(),
  referrer: z.string(),
  user_agent: z.string(),
  timestamp: z.union([isoDateTimeSchema, z.number()]),
  viewport_width: z.number().int().nonnegative(),
  viewport_height: z.number().int().nonnegative(),
});
export type PageViewData = z.infer<typeof pageViewDataSchema>;

export const analyticsResultSchema = z.object({ success: z.boolean() });

// ---------------------------------------------------------------------------------------------- sign-in

export const authGoogleRequestSchema = z
  .object({
    credential: z.string().min(1).nullish(),
    access_token: z.string().min(1).nullish(),
    ref_code: z.string().max(255).nullish(),
  })
  .refine((value) => Boolean(value.credential) || Boolean(value.access_token), {
    error: 'Sign-in needs either a credential (ID token) or an access_token.',
  });
export type AuthGoogleRequest = z.infer<typeof authGoogleRequestSchema>;

export const authSessionSchema = z.object({
  session_key: z.string().min(1),
  user: userSchema,
});
export type AuthSession = z.infer<typeof authSessionSchema>;

// ---------------------------------------------------------------------------------------------- client config

/** GET /configlist (not shown in the SPEC): what the front end needs before anyone signs in. */
export const clientConfigSchema = z.object({
  product_name: z.string(),
  google_client_id: z.string(),
  /** Null in embedded mode, where the dev checkout replaces Stripe. */
  stripe_publishable_key: z.string().nullable(),
  dev_mode: z.boolean(),
  packages: z.array(packageTierSchema),
  limits: z.object({
    maxImagesPerGeneration: z.number().int(),
    maxPresetsPerGeneration: z.number().int(),
    maxBatchImages: z.number().int(),
  }),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;
