// Payload types of the calls in SPEC §7 / DESIGN §8. Kept local so the client does not wait on
// @productgen/contracts; fields the spec leaves open are typed loosely (index signatures).

export interface ShopContextEntry {
  category: string;
  label: string;
}

export interface User {
  name: string;
  email: string;
  picture?: string;
  credits: number;
  /** True until billing has reported the balance (a new account's signup bonus arrives a moment after sign-in). */
  credits_pending?: boolean;
  site_url?: string;
  shop_context?: ShopContextEntry[];
  flags?: { is_first_generation?: boolean; showSiteUrlTooltip?: boolean; [flag: string]: unknown };
  [field: string]: unknown;
}

export interface SignInResponse {
  session_key: string;
  [field: string]: unknown;
}

export interface Category {
  id: string;
  name: string;
}

export interface ImageAnalysis {
  category: string;
  object: string;
  generation_uuid: string;
}

/** An analysed photo's cut-out: a grayscale PNG mask (base64), 255 keeps the pixel and 0 removes it. */
export interface Cutout {
  generation_uuid: string;
  mask: string;
  width: number;
  height: number;
  confidence: number;
  /** The automatic cut-out is doubtful: the screen says so and opens the brush. */
  low_confidence: boolean;
  corrected: boolean;
}

/** The seller's corrections of an analysis before Create. */
export interface AnalysisCorrection {
  object?: string;
  category?: string;
}

export interface ImageGenResponse {
  generation_uuid: string;
  [field: string]: unknown;
}

export interface GeneratedImage {
  id: string;
  input_url?: string;
  output_url: string;
  metadata?: { fixes_done?: boolean[]; [field: string]: unknown };
}

export type GenerationState = 'pending' | 'processing' | 'completed' | 'failed' | (string & {});

export interface GenerationStatus {
  analyzed: boolean;
  images: GeneratedImage[];
  gen_error?: string | null;
  status: GenerationState;
  has_watermark: boolean;
}

export interface Generation {
  id: string;
  generation_uuid: string;
  created_at: string;
  images: GeneratedImage[];
  metadata: { category?: string; num_images?: number; status?: GenerationState; error?: string | null };
  original_image_url?: string;
  original_filename?: string;
}

export type BulkJobStatus = 'pending' | 'processing' | 'completed' | 'failed';

export interface BulkJob {
  bulk_job_uuid: string;
  status: BulkJobStatus | (string & {});
  generations_done: number;
  generations_total: number;
  created_at: string;
  thumbnails?: string[];
  has_watermark?: boolean;
  generations?: Generation[];
  [field: string]: unknown;
}

export interface StylePreset {
  id: string;
  preset_name: string;
  category_name?: string;
  [field: string]: unknown;
}

export interface StylePresetList {
  success: boolean;
  presets: StylePreset[];
  error?: string;
}

export interface NewStylePreset {
  generation_uuid: string;
  image_index: number;
  preset_name: string;
}

export interface CreditRecord {
  id: string;
  created_at: string;
  description: string;
  generation_id?: string | null;
  transaction_type: 'increase' | 'decrease';
  amount: number;
  balance_after: number;
}

export interface Page<T> {
  items: T[];
  total: number;
}

/** A Past Creations row (GET /records): a single generation or a batch job, newest first. */
export interface RecordItem {
  type: 'single' | 'bulk';
  /** The generation_uuid of a single row, the bulk_job_uuid of a batch row. */
  id: string;
  status: string;
  category: string | null;
  num_images: number;
  created_at: string;
  thumbnail_url: string | null;
  [field: string]: unknown;
}

export interface RefundRequest {
  generationUuid: string;
  imageIndex: number;
  refundReason: string;
}

export interface CheckoutSession {
  sessionId: string;
  /** Hosted checkout address when the API provides it (the embedded dev checkout does). */
  url?: string;
}

export interface PaymentSuccessCheck {
  paid: boolean;
  credits: number;
}

/** Package tiers of SPEC §3: 0 Free, 1 Hobbyist, 2 Small Business, 3 Professional Seller. */
export type PackageId = 0 | 1 | 2 | 3;

export type DownloadType = 'image' | 'batch' | 'bulk';

export interface PageViewPayload {
  path: string;
  full_path: string;
  referrer: string;
  user_agent: string;
  timestamp: string;
  viewport_width: number;
  viewport_height: number;
}

export interface TrackResult {
  success: boolean;
  [field: string]: unknown;
}
