import { Schema, type Connection, type Model } from 'mongoose';

/**
 * Internal life of a batch job: reserving (the credits), handing_over (products go to generation one by one),
 * tracking (every product is with generation), then completed or failed.
 */
export const jobStages = ['reserving', 'handing_over', 'tracking', 'completed', 'failed'] as const;
export type JobStage = (typeof jobStages)[number];

/** waiting: not with generation yet; handed: generation has it; skipped and failed products are done already. */
export const productStates = ['waiting', 'handed', 'skipped', 'failed'] as const;
export type ProductState = (typeof productStates)[number];

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
}

export interface JobDocument {
  uuid: string;
  user_id: string;
  stage: JobStage;
  images_per_product: number;
  presets: string[];
  watermark: boolean;
  /** Object key of the uploaded zip until every product was handed over. */
  upload_key: string | null;
  products: ProductDocument[];
  generations_total: number;
  generations_done: number;
  thumbnails: string[];
  error: string | null;
  /** The process handing the products over renews this; a lapsed lease is resumed by another. */
  lease_until: Date | null;
  finished_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const productSchema = new Schema<ProductDocument>(
  {
    index: { type: Number, required: true },
    entry_index: { type: Number, required: true },
    name: { type: String, required: true },
    generation_uuid: { type: String, required: true },
    state: { type: String, enum: productStates, required: true },
    error: { type: String, default: null },
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
    upload_key: { type: String, default: null },
    products: { type: [productSchema], default: [] },
    generations_total: { type: Number, required: true },
    generations_done: { type: Number, default: 0 },
    thumbnails: { type: [String], default: [] },
    error: { type: String, default: null },
    lease_until: { type: Date, default: null },
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
