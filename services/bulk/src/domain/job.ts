import {
  fillPath,
  limits,
  routePaths,
  type BulkJob,
  type BulkJobCounts,
  type BulkJobStatus,
  type BulkJobSummary,
  type BulkGeneration,
  type Generation,
  type GenerationObjectRef,
} from '@productgen/contracts';
import type { GenerationProgressDocument, JobDocument, JobStage, ProductDocument } from '../data/models';
import { folderNames } from './zip-rules';

/**
 * A generation as generation's internal list gives it: the public view plus the stored original's extension and the
 * objects its downloads serve.
 */
export type JobGeneration = BulkGeneration;

export const NOTHING_MATCHED_MESSAGE =
  'No product matched the categories of the chosen style presets, so nothing was created and no credits were used.';
export const NOTHING_MADE_MESSAGE = 'No image could be made; every credit was given back.';

/**
 * The public status (SPEC §4): pending until the first product is done, then processing, then the outcome. A finished
 * job whose product a redo has just taken back is processing: the redo's two updates (the product, then the job's
 * stage) are apart for a moment, and a poll between them must not read "completed" beside a count short of the total.
 */
export function publicStatus(
  job: Pick<JobDocument, 'stage' | 'generations_done' | 'generations_total'>,
): BulkJobStatus {
  const stage: JobStage = job.stage;
  switch (stage) {
    case 'completed':
    case 'failed':
      return job.generations_done < job.generations_total ? 'processing' : stage;
    case 'tracking':
      return 'processing';
    default:
      return job.generations_done > 0 ? 'processing' : 'pending';
  }
}

export interface ComputedProgress {
  generationsDone: number;
  counts: BulkJobCounts;
  thumbnails: string[];
  /** Every product is done (and all were handed over): the job's outcome. */
  outcome?: { stage: 'completed' | 'failed'; error: string | null };
}

/** What generation announced of the product's current generation (nothing yet: undefined). */
export function progressOf(
  job: Pick<JobDocument, 'generation_progress'>,
  product: Pick<ProductDocument, 'generation_uuid'>,
): GenerationProgressDocument | undefined {
  return job.generation_progress?.[product.generation_uuid];
}

/** Where one product is (`BulkJobCounts`), from its state with bulk and what generation announced of it. */
export function productStatus(
  product: Pick<ProductDocument, 'state'>,
  generation: GenerationProgressDocument | undefined,
): keyof BulkJobCounts {
  switch (product.state) {
    case 'skipped':
    case 'removed':
      return 'done';
    case 'failed':
      return 'failed';
    case 'needs_check':
      return 'waiting_for_check';
    case 'handed':
      if (generation?.outcome === 'completed') return 'done';
      if (generation?.outcome === 'failed') return 'failed';
      return 'rendering';
    default:
      // waiting for the hand-over, or a check decision on its way: rendering next.
      return 'rendering';
  }
}

/** A finished image's link, as generation's lists give it (`output_url` of an image whose fixes are done). */
function finishedImageUrl(generationUuid: string, index: number): string {
  return `${fillPath(routePaths.downloadImage.path, { id: generationUuid, index })}?v=final`;
}

/**
 * Progress from what generation announced (its `generation.*` messages, recorded on the job): a product is done when
 * it was skipped, refused or removed, or when its generation completed or failed. A product waiting for the seller's
 * check is not done, so the job is not finished while any waits. Computing it again from the same record gives the
 * same answer, so any number of refreshes agree.
 */
export function computeProgress(job: JobDocument): ComputedProgress {
  const counts: BulkJobCounts = { done: 0, waiting_for_check: 0, rendering: 0, failed: 0 };
  let completed = 0;
  let skipped = 0;
  const thumbnails: string[] = [];
  for (const product of job.products) {
    const generation = progressOf(job, product);
    counts[productStatus(product, generation)] += 1;
    if (product.state === 'skipped') skipped += 1;
    if (product.state === 'handed' && generation?.outcome === 'completed') completed += 1;
    if (product.state === 'handed' && generation) {
      for (const index of [...generation.images].sort((a, b) => a - b)) {
        if (thumbnails.length < limits.batchCardThumbnails) {
          thumbnails.push(finishedImageUrl(product.generation_uuid, index));
        }
      }
    }
  }
  const done = counts.done + counts.failed;
  const progress: ComputedProgress = { generationsDone: done, counts, thumbnails };
  if (job.stage === 'tracking' && done === job.generations_total) {
    if (completed > 0) progress.outcome = { stage: 'completed', error: null };
    else
      progress.outcome = {
        stage: 'failed',
        error: skipped === job.generations_total ? NOTHING_MATCHED_MESSAGE : NOTHING_MADE_MESSAGE,
      };
  }
  return progress;
}

/** The job's generations in the order of its products (the zip's order). */
export function orderedGenerations<T extends Generation>(job: JobDocument, generations: readonly T[]): T[] {
  const byUuid = new Map(generations.map((generation) => [generation.generation_uuid, generation]));
  return job.products
    .map((product) => byUuid.get(product.generation_uuid))
    .filter((generation): generation is T => generation !== undefined);
}

export function summaryView(job: JobDocument): BulkJobSummary {
  return {
    bulk_job_uuid: job.uuid,
    status: publicStatus(job),
    generations_done: job.generations_done,
    generations_total: job.generations_total,
    created_at: job.created_at.toISOString(),
    thumbnails: job.thumbnails,
    has_watermark: job.watermark,
    counts: job.counts ?? computeProgress(job).counts,
  };
}

/** The first redo of a product, and any redo of a product the machine flagged for check, costs nothing. */
export function isRedoFree(product: Pick<ProductDocument, 'redos' | 'check'>): boolean {
  return (product.redos ?? 0) === 0 || Boolean(product.check);
}

export function jobView(job: JobDocument, generations: readonly JobGeneration[]): BulkJob {
  const objects = new Map(generations.map((generation) => [generation.generation_uuid, generation.object ?? null]));
  return {
    ...summaryView(job),
    generations: orderedGenerations(job, generations),
    products: job.products.map((product) => {
      const free = isRedoFree(product);
      return {
        index: product.index,
        generation_uuid: product.generation_uuid,
        filename: product.name,
        object: objects.get(product.generation_uuid) ?? product.check?.object ?? null,
        redo_free: free,
        redo_credits: free ? 0 : job.images_per_product,
      };
    }),
  };
}

/** One file of the Download All zip: where it is in the zip and the object of generation's it holds. */
export interface DownloadEntry {
  path: string;
  generationUuid: string;
  /** The object generation's download of this image (or of the original) serves, as its list references it. */
  source: GenerationObjectRef;
}

/**
 * The layout of Download All: a folder per product named after its original file, its images numbered from 1,
 * and the original photo only when asked for. Only the images generation lists a download of are in it: a refunded
 * image, or a free user's base without the watermark, is not listed, as its download route does not serve it.
 */
export function downloadEntries(
  job: JobDocument,
  generations: readonly JobGeneration[],
  includeOriginals: boolean,
): DownloadEntry[] {
  const names = new Map(job.products.map((product) => [product.generation_uuid, product.name]));
  const ordered = orderedGenerations(job, generations).filter((generation) => generation.downloads.images.length > 0);
  const folders = folderNames(ordered.map((generation) => names.get(generation.generation_uuid) ?? 'product'));
  return ordered.flatMap((generation, position) => {
    const folder = folders[position]!;
    const generationUuid = generation.generation_uuid;
    const entries: DownloadEntry[] = [...generation.downloads.images]
      .sort((a, b) => a.index - b.index)
      .map(({ index, bucket, key }) => ({
        path: `${folder}/${index + 1}.jpg`,
        generationUuid,
        source: { bucket, key },
      }));
    if (includeOriginals) {
      entries.unshift({
        path: `${folder}/original.${generation.original_extension}`,
        generationUuid,
        source: generation.downloads.original,
      });
    }
    return entries;
  });
}

export const NOT_INCLUDED_FILENAME = 'NOT-INCLUDED.txt';

const notIncludedReasons: Record<Exclude<keyof BulkJobCounts, 'done'>, string> = {
  waiting_for_check: 'needs your check (not rendered yet)',
  rendering: 'still rendering',
  failed: 'could not be made; its credits were given back',
};

/**
 * What Download All says of the products it has no image of (waiting for check, rendering, failed, removed or
 * skipped), one line each; null when every product has its images.
 */
export function notIncludedNote(job: JobDocument, entries: readonly DownloadEntry[]): string | null {
  const included = new Set(entries.map((entry) => entry.generationUuid));
  const lines: string[] = [];
  for (const product of job.products) {
    if (included.has(product.generation_uuid)) continue;
    const status = productStatus(product, progressOf(job, product));
    if (status === 'done' && product.state === 'handed') continue;
    let reason: string;
    if (product.state === 'removed') reason = 'removed from the batch by you; its credits were given back';
    else if (product.state === 'skipped') reason = 'skipped: no chosen style preset fits its category';
    else reason = notIncludedReasons[status as keyof typeof notIncludedReasons];
    lines.push(`${product.name}: ${reason}`);
  }
  if (lines.length === 0) return null;
  return `These products of the batch have no images in this download:\n${lines.join('\n')}\n`;
}
