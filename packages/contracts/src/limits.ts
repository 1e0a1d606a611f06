/**
 * Business limits and fixed names from SPEC §5 and §9, shared by the UI, the gateway and the services so that
 * a limit is changed in one place only. No imports (no zod): browser code imports this module alone
 * (`@productgen/contracts/limits`).
 */
export const limits = {
  minImagesPerGeneration: 1,
  maxImagesPerGeneration: 5,
  maxPresetsPerGeneration: 5,
  maxBatchImages: 200,
  /** Longest batch result the pages advertise (200 products × 5 images). */
  maxBatchResults: 1000,
  presetNameMaxLength: 255,
  referralSourceMaxLength: 255,
  /** Not given by the SPEC: long enough for a paragraph, short enough to keep refund records small. */
  refundReasonMaxLength: 2000,
  signupBonusCredits: 10,
  statusPollIntervalMs: 2000,
  statusPollMaxAttempts: 60,
  jobPollIntervalMs: 10_000,
  postPaymentRefreshIntervalMs: 4000,
  postPaymentRefreshDurationMs: 12_000,
  pageSize: 10,
  /** Upper bound for the page size of paginated lists, so a client cannot ask for everything at once. */
  maxPageSize: 100,
  recentlyCreatedCount: 3,
  batchCardThumbnails: 3,
  referralCookieDays: 30,
  minimumAgeYears: 16,
  clientUploadMaxWidth: 1920,
  clientUploadMaxHeight: 1080,
  /**
   * A resized 1920×1080 JPEG is well under 2 MB; 16 MiB of base64 (12 MiB of bytes) leaves room for a client
   * that skipped the resize without letting one request hold a large buffer.
   */
  maxBase64ImageChars: 16 * 1024 * 1024,
  /** 200 resized photos of up to ~1 MB each, with headroom. */
  maxZipBytes: 256 * 1024 * 1024,
  /** Not given by the SPEC: a product name the seller types on the create screen. */
  productNameMaxLength: 80,
  /**
   * The seller's corrected cut-out mask, a PNG at most 1024 px a side: a painted mask is mostly flat and compresses
   * to tens of KB; 640 KiB (under 1 MiB as base64) leaves room without letting one request hold much.
   */
  maxMaskBytes: 640 * 1024,
  maxUserMetadataKeys: 50,
  tooltipNameMaxLength: 100,
  analyticsEventNameMaxLength: 100,
} as const;

/**
 * The limits GET /configlist serves the front end (the shape of ClientConfig's `limits`). The create screen starts
 * with these until the answer arrives.
 */
export const clientLimits = {
  maxImagesPerGeneration: limits.maxImagesPerGeneration,
  maxPresetsPerGeneration: limits.maxPresetsPerGeneration,
  maxBatchImages: limits.maxBatchImages,
};

/** Header that carries the session key on every call except sign-in (SPEC §7). */
export const SESSION_KEY_HEADER = 'X-Session-Key';
/**
 * Set by the gateway only (a client's own is dropped): the caller's web origin, once it passed the CORS allowlist.
 * Services build links back to the web app on it (checkout return), so a user who opened the app at another host
 * name than the configured one comes back to where they were.
 */
export const WEB_ORIGIN_HEADER = 'X-Web-Origin';
/** Cookie and storage name of the session key (SPEC §3). */
export const SESSION_KEY_STORAGE_NAME = 'session_key';
/** Key the client sends when the API host is local and no session exists (SPEC §7). */
export const LOCAL_SESSION_KEY = 'local';
/** Tooltip key recorded when the "enter your site URL" tip is dismissed (SPEC §4). */
export const TOOLTIP_ENTER_SITE_URL = 'enter_site_url';
/** Analytics event name of the page view sent on every route change (SPEC §2). */
export const PAGE_VIEW_EVENT = 'page_view';

/** The answers the "how did you hear about us" survey offers (SPEC §3); "Other" lets the user type their own. */
export const referralSourceOptions = [
  'Google Search',
  'Social Media',
  'Friend or Colleague',
  'Advertisement',
  'Other',
] as const;
/** Sent when the survey is skipped or closed (SPEC §4). */
export const REFERRAL_SOURCE_SKIPPED = 'Skipped';

/** Name of the referral-code cookie: the product name followed by `_ref_code` (SPEC §3, DESIGN brand note). */
export function referralCookieName(productName = 'ProductGen'): string {
  return `${productName.toLowerCase().replace(/[^a-z0-9]+/g, '')}_ref_code`;
}
