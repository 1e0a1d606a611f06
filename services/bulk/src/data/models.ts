import type { BulkJobCounts } from '@productgen/contracts';
import { Schema, type Connection, type Model } from 'mongoose';

/**
 * Internal life of a batch job: reserving (the credits), handing_over (products go to generation one by one),
 * tracking (every product is with generation), then completed or failed.
 */
export const jobStages = ['reserving', 'handing_over', 'tracking', 'completed', 'failed'] as const;
export type JobStage = (typeof jobStages)[number];

/**
 * waiting: not with generation yet; handed: generation has it (rendering or done); needs_check: generation holds it
 * for the seller's check ("Needs your check"), credits reserved; deciding: a check decision or removal is being
 * sent to generation; skipped, failed and removed (by the seller, credits given back) products are done already.
 */
export const productStates = ['waiting', 'handed', 'needs_check', 'deciding', 'skipped', 'failed', 'removed'] as const;
export type ProductState = (typeof productStates)[number];

/** How a product that waited for check was let go: the seller's decision, or its wait ran out. */
export const checkOutcomes = ['looks_right', 'render_anyway', 'fix', 'unchecked', 'removed'] as const;
export type CheckOutcome = (typeof checkOutcomes)[number];

/** What analysis said of a product held for check (generation's answer at hand-over). */
export interface CheckDocument {
  reasons: string[];
  category: string | null;
  object: string | null;
  held_at: Date;
  /** Set while a decision is being sent to generation (a stopped one is given up after the lease). */
  deciding_since: Date | null;
  outcome: CheckOutcome | null;
}

/**
 * What generation's messages said of one generation of the job (`generation.image_completed`, `.completed`,
 * `.failed`): the images made and, once settled, its outcome. Kept per generation uuid, so a message of a generation
 * a redo replaced, a repeated one or one arriving out of order changes nothing it should not.
 */
export interface GenerationProgressDocument {
  /** Indexes of the images made, ascending. */
  images: number[];
  outcome: 'completed' | 'failed' | null;
}

export interface ProductDocument {
  /** Position among the zip's images (central directory order); also finds the entry again. */
  index: number;
  /** Position of the image's entry in the zip's central directory. */
  entry_index: number;
  /** The image's own name, made unique within the job. */
  name: string;
  /** Chosen here, so a repeated hand-over names the same generation (and the credits reserved for it). */
  generation_uuid: string;
  state: ProductState;
  error: string | null;
  /** Set when generation held the product for the seller's check; kept after the check. */
  check?: CheckDocument | null;
  /** Times the seller had the finished product made again (the first redo is free). */
  redos?: number;
  /** Generations a redo replaced, oldest first (their images no longer belong to the job). */
  replaced_generation_uuids?: string[];
}

export interface JobDocument {
  uuid: string;
  user_id: string;
  stage: JobStage;
  images_per_product: number;
  presets: string[];
  watermark: boolean;
  /** "Check uncertain products before rendering": products analysis is unsure of wait for the seller. */
  check_uncertain: boolean;
  /** Object key of the uploaded zip until every product was handed over. */
  upload_key: string | null;
  products: ProductDocument[];
  generations_total: number;
  generations_done: number;
  /** By generation uuid: what generation announced of each (bulk never reads progress back from generation). */
  generation_progress?: Record<string, GenerationProgressDocument>;
  /**
   * Counts every change progress is computed from (a message recorded, a product's state), so a refresh computed
   * from an older read never overwrites a newer one.
   */
  progress_rev?: number;
  /** Where the products are, as of the last refresh (null before the first). */
  counts: BulkJobCounts | null;
  thumbnails: string[];
  error: string | null;
  /** The process handing the products over renews this; a lapsed lease is resumed by another. */
  lease_until: Date | null;
  /**
   * New with every claim of the lease, so a process whose lease lapsed and was claimed by another can no longer
   * renew, release or finish it.
   */
  lease_holder?: string | null;
  finished_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const checkSchema = new Schema<CheckDocument>(
  {
    reasons: { type: [String], default: [] },
    category: { type: String, default: null },
    object: { type: String, default: null },
    held_at: { type: Date, required: true },
    deciding_since: { type: Date, default: null },
    outcome: { type: String, enum: [...checkOutcomes, null], default: null },
  },
  { _id: false },
);

const productSchema = new Schema<ProductDocument>(
  {
    index: { type: Number, required: true },
    entry_index: { type: Number, required: true },
    name: { type: String, required: true },
    generation_uuid: { type: String, required: true },
    state: { type: String, enum: productStates, required: true },
    error: { type: String, default: null },
    check: { type: checkSchema, default: null },
    redos: { type: Number, default: 0 },
    replaced_generation_uuids: { type: [String], default: [] },
  },
  { _id: false },
);

const jobSchema = new Schema<JobDocument>(
  {
    uuid: { type: String, required: true, unique: true },
    user_id: { type: String, required: true },
    stage: { type: String, enum: jobStages, required: true },
    images_per_product: { type: Number, required: true },
    presets: { type: [String], default: [] },
    watermark: { type: Boolean, default: true },
    check_uncertain: { type: Boolean, default: false },
    upload_key: { type: String, default: null },
    products: { type: [productSchema], default: [] },
    generations_total: { type: Number, required: true },
    generations_done: { type: Number, default: 0 },
    generation_progress: { type: Schema.Types.Mixed, default: () => ({}) },
    progress_rev: { type: Number, default: 0 },
    counts: { type: Schema.Types.Mixed, default: null },
    thumbnails: { type: [String], default: [] },
    error: { type: String, default: null },
    lease_until: { type: Date, default: null },
    lease_holder: { type: String, default: null },
    finished_at: { type: Date, default: null },
  },
  { collection: 'bulk_jobs', timestamps: { createdAt: 'created_at', updatedAt: 'updated_at' }, versionKey: false },
);
jobSchema.index({ user_id: 1, created_at: -1 });
jobSchema.index({ stage: 1 });

export interface BulkModels {
  jobs: Model<JobDocument>;
}

/** Registers the model on the service's own connection and builds its indexes (the unique uuid is relied on). */
export async function createModels(connection: Connection): Promise<BulkModels> {
  const jobs =
    (connection.models.BulkJob as Model<JobDocument> | undefined) ??
    connection.model<JobDocument>('BulkJob', jobSchema);
  await jobs.init();
  return { jobs };
}
