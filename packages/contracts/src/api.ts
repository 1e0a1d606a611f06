import { z } from 'zod';
import {
  analysisCorrectionSchema,
  analysisResultSchema,
  analyticsEventSchema,
  analyticsResultSchema,
  analyzeImageRequestSchema,
  authGoogleRequestSchema,
  authSessionSchema,
  bulkCheckAnswerSchema,
  bulkCheckDecisionSchema,
  bulkChecksSchema,
  bulkJobCreatedResponseSchema,
  bulkJobSchema,
  bulkJobStatusFilterSchema,
  bulkJobSummarySchema,
  bulkProductParamsSchema,
  bulkRedoAnswerSchema,
  bulkRedoRequestSchema,
  bulkZipRequestSchema,
  categoryIdSchema,
  categorySchema,
  checkoutRequestSchema,
  checkoutSessionSchema,
  clientConfigSchema,
  creditRecordSchema,
  cutoutSaveSchema,
  cutoutSchema,
  entityIdSchema,
  generationSchema,
  generationStartedSchema,
  generationStatusResponseSchema,
  hasSeenReferralFormSchema,
  imageGenFromIdRequestSchema,
  imageGenRequestSchema,
  intInRange,
  pageOf,
  paginationQuerySchema,
  paymentCheckRequestSchema,
  paymentCheckResponseSchema,
  paymentRecordSchema,
  recordItemSchema,
  referralSourceSchema,
  refundRequestSchema,
  refundResponseSchema,
  stylePresetListSchema,
  stylePresetSaveSchema,
  stylePresetSchema,
  successSchema,
  tooltipDismissalSchema,
  userMetadataSchema,
  userSchema,
  userSettingsSchema,
  uuidSchema,
} from './entities';
import { limits } from './limits';
import { routePaths, type HttpMethod } from './paths';

/*
 * The route table: every call of SPEC §7 and DESIGN §8 on the one API origin. The gateway routes by `owner`,
 * checks `auth` and validates `request` with these schemas; `buildOpenApiDocument` publishes the same table.
 */

export type RouteOwner = 'auth' | 'billing' | 'generation' | 'bulk' | 'gateway';
/** session: X-Session-Key required (401 without); optional: used when present; none: never read. */
export type RouteAuth = 'session' | 'none' | 'optional';
/** json: parsed JSON body; multipart: form fields plus files; raw: the owner needs the exact bytes (webhooks). */
export type RequestBodyType = 'json' | 'multipart' | 'raw';
/** What a successful answer carries. */
export type ResponseType = 'json' | 'binary' | 'html' | 'redirect';

export interface RouteRequest {
  body?: z.ZodType;
  query?: z.ZodObject;
  params?: z.ZodObject;
  headers?: z.ZodObject;
  /** Defaults to json when `body` is set. */
  bodyType?: RequestBodyType;
}

export interface ApiRoute {
  /** Unique, camelCase; the OpenAPI operationId. */
  id: string;
  method: HttpMethod;
  /** Express-style path, e.g. `/image-gen/status/:generation_uuid`. */
  path: string;
  owner: RouteOwner;
  auth: RouteAuth;
  summary: string;
  request?: RouteRequest;
  response: z.ZodType;
  /** Defaults to json. */
  responseType?: ResponseType;
  /** Content types of a binary or html answer. */
  responseContentTypes?: readonly string[];
  /** Error statuses this route answers besides the ones every route can (400, 401, 429, 500). */
  errorStatuses?: readonly number[];
  /** Embedded mode only: refused when NODE_ENV=production (DESIGN §8). */
  devOnly?: boolean;
  /**
   * Download links are plain anchors that cannot carry a header, so these routes also accept the session key
   * from the `session_key` cookie.
   */
  acceptsSessionCookie?: boolean;
}

/** Keeps each route's literal types so `z.infer` of its schemas works at the call site. */
export function defineRoute<const Route extends ApiRoute>(route: Route): Route {
  return route;
}

type RequestPart<Route, Part extends keyof RouteRequest> = Route extends { request: infer Request }
  ? Request extends Record<Part, infer Schema extends z.ZodType>
    ? Schema
    : never
  : never;

/** Parsed (output) type of a route's body / query / params, e.g. `RouteBody<typeof routes.imageGen>`. */
export type RouteBody<Route extends ApiRoute> = z.output<RequestPart<Route, 'body'>>;
export type RouteQuery<Route extends ApiRoute> = z.output<RequestPart<Route, 'query'>>;
export type RouteParams<Route extends ApiRoute> = z.output<RequestPart<Route, 'params'>>;
/** What the client sends (input type, before defaults and transforms). */
export type RouteBodyInput<Route extends ApiRoute> = z.input<RequestPart<Route, 'body'>>;
export type RouteResponse<Route extends ApiRoute> = z.output<Route['response']>;

// ---------------------------------------------------------------------------------------------- shared pieces

const generationUuidParams = z.object({ generation_uuid: uuidSchema });
const uuidIdParams = z.object({ id: uuidSchema });
/** Download All of a batch leaves the uploaded photos out unless asked for. */
const bulkDownloadQuery = z.object({
  originals: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .optional()
    .transform((value) => value === 'true'),
});
const downloadImageParams = z.object({
  id: uuidSchema,
  // -1 is the original photo (SPEC §5).
  index: intInRange(-1, limits.maxImagesPerGeneration - 1, { coerce: true }),
});
const checkoutSessionParams = z.object({ sessionId: z.string().min(1).max(255) });

/** Bytes of a file answer; never parsed, only described. */
export const binaryResponseSchema = z.instanceof(Uint8Array);
/** Text of an HTML page answer. */
export const htmlResponseSchema = z.string();
/** Target of a 303 redirect (the Location header). */
export const redirectResponseSchema = z.string();

/** The subset of a Stripe event billing reads; the signature is checked on the raw bytes first. */
export const stripeWebhookEventSchema = z
  .object({
    id: z.string(),
    type: z.string(),
    data: z.object({ object: z.record(z.string(), z.unknown()) }),
  })
  .loose();

const imageContentTypes = ['image/png', 'image/jpeg', 'image/webp'] as const;
const zipContentTypes = ['application/zip'] as const;

// ---------------------------------------------------------------------------------------------- routes

export const routes = {
  // ---- auth
  authGoogle: defineRoute({
    id: 'authGoogle',
    ...routePaths.authGoogle,
    owner: 'auth',
    auth: 'none',
    summary: 'Sign in with a Google ID token or access token; starts a new session.',
    request: { body: authGoogleRequestSchema },
    response: authSessionSchema,
  }),
  authMe: defineRoute({
    id: 'authMe',
    ...routePaths.authMe,
    owner: 'auth',
    auth: 'session',
    summary: 'The signed-in user.',
    response: userSchema,
  }),
  authLogout: defineRoute({
    id: 'authLogout',
    ...routePaths.authLogout,
    owner: 'auth',
    auth: 'session',
    summary: 'End the session (the key is revoked).',
    response: successSchema,
  }),
  saveUserSettings: defineRoute({
    id: 'saveUserSettings',
    ...routePaths.saveUserSettings,
    owner: 'auth',
    auth: 'session',
    summary: 'Save the website URL; answers the updated user.',
    request: { body: userSettingsSchema },
    response: userSchema,
  }),
  saveUserMetadata: defineRoute({
    id: 'saveUserMetadata',
    ...routePaths.saveUserMetadata,
    owner: 'auth',
    auth: 'session',
    summary: 'Merge free-form settings metadata into the user.',
    request: { body: userMetadataSchema },
    response: successSchema,
  }),
  closeTooltip: defineRoute({
    id: 'closeTooltip',
    ...routePaths.closeTooltip,
    owner: 'auth',
    auth: 'session',
    summary: 'Record that a tip was dismissed (e.g. enter_site_url).',
    request: { body: tooltipDismissalSchema },
    response: successSchema,
  }),
  saveReferralSource: defineRoute({
    id: 'saveReferralSource',
    ...routePaths.saveReferralSource,
    owner: 'auth',
    auth: 'session',
    summary: 'Answer of the "how did you hear about us" survey ("Skipped" when skipped).',
    request: { body: referralSourceSchema },
    response: successSchema,
  }),
  hasSeenReferralForm: defineRoute({
    id: 'hasSeenReferralForm',
    ...routePaths.hasSeenReferralForm,
    owner: 'auth',
    auth: 'session',
    summary: 'Whether the user already answered or skipped the referral survey.',
    response: hasSeenReferralFormSchema,
  }),
  devIdpCredential: defineRoute({
    id: 'devIdpCredential',
    ...routePaths.devIdpCredential,
    owner: 'auth',
    auth: 'none',
    summary: 'Embedded mode: an ID token from the built-in identity provider, accepted by POST /auth/google.',
    request: {
      query: z.object({
        email: z.email({ error: 'must be an email address' }),
        given_name: z.string().max(255).optional(),
        family_name: z.string().max(255).optional(),
      }),
    },
    response: z.object({ credential: z.string() }),
    devOnly: true,
  }),

  // ---- billing
  createCheckoutSession: defineRoute({
    id: 'createCheckoutSession',
    ...routePaths.createCheckoutSession,
    owner: 'billing',
    auth: 'session',
    summary: 'Start a card checkout for a package; the browser then goes to the hosted checkout.',
    request: { body: checkoutRequestSchema },
    response: checkoutSessionSchema,
    errorStatuses: [502],
  }),
  checkPaymentSuccess: defineRoute({
    id: 'checkPaymentSuccess',
    ...routePaths.checkPaymentSuccess,
    owner: 'billing',
    auth: 'session',
    summary: 'After returning with payment=success: whether the payment is credited, and the balance.',
    request: { body: paymentCheckRequestSchema },
    response: paymentCheckResponseSchema,
  }),
  paymentWebhook: defineRoute({
    id: 'paymentWebhook',
    ...routePaths.paymentWebhook,
    owner: 'billing',
    auth: 'none',
    summary: 'Stripe webhook; the signature is verified on the raw body and each session is credited once.',
    request: {
      body: stripeWebhookEventSchema,
      bodyType: 'raw',
      headers: z.object({ 'stripe-signature': z.string({ error: 'is required' }).min(1) }),
    },
    response: z.object({ received: z.literal(true) }),
  }),
  paymentRecords: defineRoute({
    id: 'paymentRecords',
    ...routePaths.paymentRecords,
    owner: 'billing',
    auth: 'session',
    summary: "The user's payments, newest first.",
    response: z.object({ records: z.array(paymentRecordSchema) }),
  }),
  creditLog: defineRoute({
    id: 'creditLog',
    ...routePaths.creditLog,
    owner: 'billing',
    auth: 'session',
    summary: 'Credit log, newest first.',
    request: { query: paginationQuerySchema },
    response: pageOf(creditRecordSchema),
  }),
  requestRefund: defineRoute({
    id: 'requestRefund',
    ...routePaths.requestRefund,
    owner: 'billing',
    auth: 'session',
    summary: 'Ask for the credit of one generated image back; granted at most once per image.',
    request: { body: refundRequestSchema },
    response: refundResponseSchema,
    // 409: this image was already refunded; 429 (common): the refund abuse limit.
    errorStatuses: [404, 409],
  }),
  devCheckoutPage: defineRoute({
    id: 'devCheckoutPage',
    ...routePaths.devCheckoutPage,
    owner: 'billing',
    auth: 'none',
    summary: 'Embedded mode: the built-in hosted checkout page.',
    request: { params: checkoutSessionParams },
    response: htmlResponseSchema,
    responseType: 'html',
    responseContentTypes: ['text/html'],
    errorStatuses: [404],
    devOnly: true,
  }),
  devCheckoutPay: defineRoute({
    id: 'devCheckoutPay',
    ...routePaths.devCheckoutPay,
    owner: 'billing',
    auth: 'none',
    summary: 'Embedded mode: pay; a Stripe-signed webhook goes to billing, then a redirect to the success URL.',
    request: { params: checkoutSessionParams },
    response: redirectResponseSchema,
    responseType: 'redirect',
    errorStatuses: [404],
    devOnly: true,
  }),

  // ---- generation
  listCategories: defineRoute({
    id: 'listCategories',
    ...routePaths.listCategories,
    owner: 'generation',
    auth: 'optional',
    summary: 'Product categories, loaded at start.',
    response: z.array(categorySchema),
  }),
  analyzeImage: defineRoute({
    id: 'analyzeImage',
    ...routePaths.analyzeImage,
    owner: 'generation',
    auth: 'session',
    summary: 'Analyse a photo: product name and category, and the generation_uuid to create from.',
    request: { body: analyzeImageRequestSchema },
    response: analysisResultSchema,
    errorStatuses: [413, 415],
  }),
  getCutout: defineRoute({
    id: 'getCutout',
    ...routePaths.getCutout,
    owner: 'generation',
    auth: 'session',
    summary: "An analysed photo's cut-out as a grayscale mask, with how far the automatic cut-out can be trusted.",
    request: { params: generationUuidParams },
    response: cutoutSchema,
    errorStatuses: [404],
  }),
  saveCutout: defineRoute({
    id: 'saveCutout',
    ...routePaths.saveCutout,
    owner: 'generation',
    auth: 'session',
    summary: "The seller's corrected mask (a PNG of the stored mask's size), used for every image; before Create only.",
    request: { params: generationUuidParams, body: cutoutSaveSchema },
    response: cutoutSchema,
    errorStatuses: [404, 409],
  }),
  correctAnalysis: defineRoute({
    id: 'correctAnalysis',
    ...routePaths.correctAnalysis,
    owner: 'generation',
    auth: 'session',
    summary:
      "The seller's product name and category for an analysed photo (the category picks the looks); before Create only.",
    request: { params: generationUuidParams, body: analysisCorrectionSchema },
    response: analysisResultSchema,
    errorStatuses: [404, 409],
  }),
  imageGen: defineRoute({
    id: 'imageGen',
    ...routePaths.imageGen,
    owner: 'generation',
    auth: 'session',
    summary: 'Analyse a photo and create 1 to 5 images from it in one call.',
    request: { body: imageGenRequestSchema },
    response: generationStartedSchema,
    errorStatuses: [402, 413, 415],
  }),
  imageGenFromId: defineRoute({
    id: 'imageGenFromId',
    ...routePaths.imageGenFromId,
    owner: 'generation',
    auth: 'session',
    summary: 'Create 1 to 5 images from an analysed photo, optionally one per style preset.',
    request: { body: imageGenFromIdRequestSchema },
    response: generationStartedSchema,
    errorStatuses: [402, 404],
  }),
  generationStatus: defineRoute({
    id: 'generationStatus',
    ...routePaths.generationStatus,
    owner: 'generation',
    auth: 'session',
    summary: 'Poll a generation: status, images so far and their fixes.',
    request: { params: generationUuidParams },
    response: generationStatusResponseSchema,
    errorStatuses: [404],
  }),
  listGenerations: defineRoute({
    id: 'listGenerations',
    ...routePaths.listGenerations,
    owner: 'generation',
    auth: 'session',
    summary: "The user's generations, newest first.",
    request: { query: paginationQuerySchema },
    response: pageOf(generationSchema),
  }),
  generationDetail: defineRoute({
    id: 'generationDetail',
    ...routePaths.generationDetail,
    owner: 'generation',
    auth: 'session',
    summary: 'One generation with its images; `id` is the generation_uuid.',
    request: { params: uuidIdParams },
    response: generationSchema,
    errorStatuses: [404],
  }),
  listRecords: defineRoute({
    id: 'listRecords',
    ...routePaths.listRecords,
    // Generation records each generation with its bulk_job_uuid, so it can list batch rows itself.
    owner: 'generation',
    auth: 'session',
    summary: 'Past creations: single generations and batch jobs, newest first.',
    response: z.object({ records: z.array(recordItemSchema) }),
  }),
  listStylePresets: defineRoute({
    id: 'listStylePresets',
    ...routePaths.listStylePresets,
    owner: 'generation',
    auth: 'session',
    summary: "The user's style presets, all categories or one (?category=).",
    request: { query: z.object({ category: categoryIdSchema.optional() }) },
    response: stylePresetListSchema,
  }),
  createStylePreset: defineRoute({
    id: 'createStylePreset',
    ...routePaths.createStylePreset,
    owner: 'generation',
    auth: 'session',
    summary: 'Save the look of one generated image as a named preset for its category.',
    request: { body: stylePresetSaveSchema },
    response: stylePresetSchema,
    errorStatuses: [404],
  }),
  getStylePreset: defineRoute({
    id: 'getStylePreset',
    ...routePaths.getStylePreset,
    owner: 'generation',
    auth: 'session',
    summary: 'One style preset.',
    request: { params: z.object({ id: entityIdSchema }) },
    response: stylePresetSchema,
    errorStatuses: [404],
  }),
  downloadImage: defineRoute({
    id: 'downloadImage',
    ...routePaths.downloadImage,
    owner: 'generation',
    auth: 'session',
    summary: 'Download one image of a generation (index -1 is the original photo).',
    request: { params: downloadImageParams },
    response: binaryResponseSchema,
    responseType: 'binary',
    responseContentTypes: imageContentTypes,
    errorStatuses: [404],
    acceptsSessionCookie: true,
  }),
  downloadGeneration: defineRoute({
    id: 'downloadGeneration',
    ...routePaths.downloadGeneration,
    owner: 'generation',
    auth: 'session',
    summary: 'Download every image of a generation as one zip.',
    request: { params: uuidIdParams },
    response: binaryResponseSchema,
    responseType: 'binary',
    responseContentTypes: zipContentTypes,
    errorStatuses: [404],
    acceptsSessionCookie: true,
  }),

  // ---- bulk
  createBulkJob: defineRoute({
    id: 'createBulkJob',
    ...routePaths.createBulkJob,
    owner: 'bulk',
    auth: 'session',
    summary: 'Start a batch from a zip of up to 200 product photos.',
    request: { body: bulkZipRequestSchema, bodyType: 'multipart' },
    response: bulkJobCreatedResponseSchema,
    errorStatuses: [402, 413, 415],
  }),
  getBulkJob: defineRoute({
    id: 'getBulkJob',
    ...routePaths.getBulkJob,
    owner: 'bulk',
    auth: 'session',
    summary: 'A batch job with its progress and generations.',
    request: { params: uuidIdParams },
    response: bulkJobSchema,
    errorStatuses: [404],
  }),
  listBulkJobs: defineRoute({
    id: 'listBulkJobs',
    ...routePaths.listBulkJobs,
    owner: 'bulk',
    auth: 'session',
    summary: "The user's batch jobs, newest first, optionally filtered by status (comma-joined).",
    request: { query: z.object({ statuses: bulkJobStatusFilterSchema.optional() }) },
    response: z.object({ jobs: z.array(bulkJobSummarySchema) }),
  }),
  downloadBulkJob: defineRoute({
    id: 'downloadBulkJob',
    ...routePaths.downloadBulkJob,
    owner: 'bulk',
    auth: 'session',
    summary: 'Download every image of a batch job as one zip: a folder per product (originals with ?originals=true).',
    request: { params: uuidIdParams, query: bulkDownloadQuery },
    response: binaryResponseSchema,
    responseType: 'binary',
    responseContentTypes: zipContentTypes,
    errorStatuses: [404],
    acceptsSessionCookie: true,
  }),

  listBulkChecks: defineRoute({
    id: 'listBulkChecks',
    ...routePaths.listBulkChecks,
    owner: 'bulk',
    auth: 'session',
    summary: 'The products of a batch waiting for the seller\'s check ("Needs your check"), in the batch\'s order.',
    request: { params: uuidIdParams },
    response: bulkChecksSchema,
    errorStatuses: [404],
  }),
  decideBulkCheck: defineRoute({
    id: 'decideBulkCheck',
    ...routePaths.decideBulkCheck,
    owner: 'bulk',
    auth: 'session',
    summary: 'Looks right, Render anyway, or a fix (mask, name, category) of a product waiting for check: it renders.',
    request: { params: bulkProductParamsSchema, body: bulkCheckDecisionSchema },
    response: bulkCheckAnswerSchema,
    errorStatuses: [400, 404, 409, 413],
  }),
  removeBulkProduct: defineRoute({
    id: 'removeBulkProduct',
    ...routePaths.removeBulkProduct,
    owner: 'bulk',
    auth: 'session',
    summary: 'Removes a product waiting for check from its batch; its credits are given back at once.',
    request: { params: bulkProductParamsSchema },
    response: bulkCheckAnswerSchema,
    errorStatuses: [404, 409],
  }),

  redoBulkProduct: defineRoute({
    id: 'redoBulkProduct',
    ...routePaths.redoBulkProduct,
    owner: 'bulk',
    auth: 'session',
    summary: 'Makes a finished batch product again, corrected or not; free the first time or when it was flagged.',
    request: { params: bulkProductParamsSchema, body: bulkRedoRequestSchema },
    response: bulkRedoAnswerSchema,
    errorStatuses: [400, 402, 404, 409, 413],
  }),

  // ---- gateway
  clientConfig: defineRoute({
    id: 'clientConfig',
    ...routePaths.clientConfig,
    owner: 'gateway',
    auth: 'optional',
    summary: 'Front-end configuration: product name, sign-in client id, packages and limits.',
    response: clientConfigSchema,
  }),
  trackEvent: defineRoute({
    id: 'trackEvent',
    ...routePaths.trackEvent,
    owner: 'gateway',
    auth: 'optional',
    summary: 'Analytics event {en, do}, e.g. a page view.',
    request: { body: analyticsEventSchema },
    response: analyticsResultSchema,
  }),
} as const satisfies Record<keyof typeof routePaths, ApiRoute>;

export type RouteId = keyof typeof routes;

/** Every API route, in table order. */
export const apiRoutes: readonly ApiRoute[] = Object.values(routes);

/** `/image-gen/status/:generation_uuid` → `/image-gen/status/{generation_uuid}`. */
export function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** Names of the `:params` of an Express-style path, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1] ?? '');
}
