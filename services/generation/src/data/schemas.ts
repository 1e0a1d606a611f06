import type { CategoryId } from '@productgen/contracts';
import { Schema, type Connection, type Model, type Types } from 'mongoose';
import type { StyleRecipe } from '@productgen/studio-engine';

/**
 * Internal life of a generation; the public status maps analyzed/held/reserving/pending to "pending". The transitions
 * (README "Generation states") are conditional updates in GenerationRepository; the sweeper finishes stuck ones.
 * `held` is a batch product analysis was unsure of, waiting for the seller's check on the batch's reserved credits
 * (bulk releases or drops it; generation's sweeper leaves it alone).
 */
export const generationStages = [
  'analyzed',
  'held',
  'reserving',
  'pending',
  'processing',
  'completed',
  'failed',
] as const;
export type GenerationStage = (typeof generationStages)[number];

export interface VariationDocument {
  index: number;
  recipe: StyleRecipe;
  preset_id: string | null;
}

export interface ImageDocument {
  index: number;
  /** Object key of the base (unfixed) image, once made. */
  base_key: string | null;
  /**
   * The base carries the watermark the generation's finished images get. Absent on bases stored before bases were
   * watermarked: a free user's such base is never served (it would be a clean copy of a watermarked image).
   */
  base_watermarked?: boolean;
  /** Object key of the finished image, once every fix is done. */
  final_key: string | null;
  /** One flag per fix: super-resolution, sharpening, watermark (true when not needed). */
  fixes_done: boolean[];
  error: string | null;
  /** The credit of a failed image was given back. */
  refunded: boolean;
  /**
   * When billing granted the user's refund of this image: it is withdrawn, no longer listed or served (a refunded
   * image that stayed downloadable would be free). Absent on records from before withdrawals existed.
   */
  withdrawn_at?: Date | null;
}

/** The product's mask over the photo, stored with the generation; the renderer cuts the product out by it. */
export interface CutoutDocument {
  /** Object key of the grayscale PNG (the analysis matte, or the seller's corrected mask). */
  key: string;
  width: number;
  height: number;
  /** How far the automatic cut-out can be trusted (0..1). */
  confidence: number;
  /** The seller corrected it. */
  corrected: boolean;
}

export interface GenerationDocument {
  _id: Types.ObjectId;
  uuid: string;
  user_id: string;
  stage: GenerationStage;
  category: CategoryId | null;
  object: string | null;
  original_key: string;
  original_content_type: string;
  original_filename: string | null;
  /** Null when nothing was found, and on records from before mattes were stored: the renderer segments then. */
  cutout: CutoutDocument | null;
  num_images: number;
  watermark: boolean;
  brand_colors: string[];
  variations: VariationDocument[];
  images: ImageDocument[];
  error: string | null;
  bulk_job_uuid: string | null;
  /** Set when the credits were reserved and the job queued. */
  started_at: Date | null;
  /** Set once the broker confirmed the render job; until then the sweeper publishes it (an outbox). */
  job_published_at: Date | null;
  /**
   * When the sweeper may take the generation up: the bounded age of its stage, pushed forward by each sign of
   * progress, and the lease of a sweeper working on it. Null once nothing is left to sweep.
   */
  sweep_after: Date | null;
  /** Times the sweeper queued the render job again. */
  requeues: number;
  finished_at: Date | null;
  /** A held batch product: the batch's style presets (ids), applied once its category is confirmed. */
  batch_presets?: string[];
  /** A held batch product: why analysis was unsure of it (cutout, category). */
  check_reasons?: string[];
  /**
   * An analysed photo nobody created from is removed after this (the sweeper removes its files, then the record);
   * cleared when Create claims it. Null for every other generation.
   */
  expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface StylePresetDocument {
  _id: Types.ObjectId;
  user_id: string;
  name: string;
  category: CategoryId;
  recipe: StyleRecipe;
  source_generation_uuid: string;
  source_image_index: number;
  created_at: Date;
}

const imageSchema = new Schema<ImageDocument>(
  {
    index: { type: Number, required: true },
    base_key: { type: String, default: null },
    base_watermarked: { type: Boolean },
    final_key: { type: String, default: null },
    fixes_done: { type: [Boolean], default: [false, false, false] },
    error: { type: String, default: null },
    refunded: { type: Boolean, default: false },
    withdrawn_at: { type: Date, default: null },
  },
  { _id: false },
);

const cutoutSchema = new Schema<CutoutDocument>(
  {
    key: { type: String, required: true },
    width: { type: Number, required: true },
    height: { type: Number, required: true },
    confidence: { type: Number, required: true },
    corrected: { type: Boolean, default: false },
  },
  { _id: false },
);

const variationSchema = new Schema<VariationDocument>(
  {
    index: { type: Number, required: true },
    recipe: { type: Schema.Types.Mixed, required: true },
    preset_id: { type: String, default: null },
  },
  { _id: false },
);

const generationSchema = new Schema<GenerationDocument>(
  {
    uuid: { type: String, required: true, unique: true },
    user_id: { type: String, required: true },
    stage: { type: String, enum: generationStages, required: true },
    category: { type: String, default: null },
    object: { type: String, default: null },
    original_key: { type: String, required: true },
    original_content_type: { type: String, required: true },
    original_filename: { type: String, default: null },
    cutout: { type: cutoutSchema, default: null },
    num_images: { type: Number, default: 0 },
    watermark: { type: Boolean, default: true },
    brand_colors: { type: [String], default: [] },
    variations: { type: [variationSchema], default: [] },
    images: { type: [imageSchema], default: [] },
    error: { type: String, default: null },
    bulk_job_uuid: { type: String, default: null },
    started_at: { type: Date, default: null },
    job_published_at: { type: Date, default: null },
    sweep_after: { type: Date, default: null },
    requeues: { type: Number, default: 0 },
    finished_at: { type: Date, default: null },
    expires_at: { type: Date, default: null },
    batch_presets: { type: [String], default: undefined },
    check_reasons: { type: [String], default: undefined },
  },
  { collection: 'generations', timestamps: { createdAt: 'created_at', updatedAt: 'updated_at' }, versionKey: false },
);
generationSchema.index({ user_id: 1, created_at: -1 });
generationSchema.index({ stage: 1, sweep_after: 1 });
generationSchema.index({ user_id: 1, bulk_job_uuid: 1 });
// The sweeper removes an expired analysed photo's files and then its record; the TTL monitor removes a record the
// sweeper did not reach within a day (no sweeper running), so records never pile up.
generationSchema.index({ expires_at: 1 }, { expireAfterSeconds: 24 * 60 * 60 });

const stylePresetSchema = new Schema<StylePresetDocument>(
  {
    user_id: { type: String, required: true, index: true },
    name: { type: String, required: true },
    category: { type: String, required: true },
    recipe: { type: Schema.Types.Mixed, required: true },
    source_generation_uuid: { type: String, required: true },
    source_image_index: { type: Number, required: true },
  },
  { collection: 'style_presets', timestamps: { createdAt: 'created_at', updatedAt: false }, versionKey: false },
);

export interface GenerationModels {
  generations: Model<GenerationDocument>;
  stylePresets: Model<StylePresetDocument>;
}

function modelOn<T>(connection: Connection, name: string, schema: Schema<T>): Model<T> {
  return (connection.models[name] as Model<T> | undefined) ?? connection.model<T>(name, schema);
}

/** Registers the models on the service's own connection and builds their indexes (the unique uuid is relied on). */
export async function createModels(connection: Connection): Promise<GenerationModels> {
  const models: GenerationModels = {
    generations: modelOn(connection, 'Generation', generationSchema),
    stylePresets: modelOn(connection, 'StylePreset', stylePresetSchema),
  };
  await Promise.all([models.generations.init(), models.stylePresets.init()]);
  return models;
}
