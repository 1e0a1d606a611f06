// The job page's reading of a bulk job (SPEC §4), as pure functions.
import type { BulkJob, Generation } from '@productgen/platform-client';
import { fixesRunning } from '../shared/images';

export const JOB_POLL_INTERVAL_MS = 10_000;

export const LOADING_MESSAGE = 'Loading job status...';
export const NOT_FOUND_MESSAGE = 'Job not found.';
export const FETCH_FAILED_MESSAGE = 'Failed to fetch job status.';

const STATUS_LABELS: Record<string, string> = {
  pending: 'Pending',
  processing: 'Processing',
  completed: 'Completed',
  failed: 'Failed',
};

/** SPEC §4: pending, processing, completed, failed; anything else shows Unknown. */
export function statusLabel(status: unknown): string {
  return (typeof status === 'string' && STATUS_LABELS[status]) || 'Unknown';
}

/** The progress bar shows while the job is neither completed nor failed. */
export function showsProgressBar(job: Pick<BulkJob, 'status'>): boolean {
  return job.status !== 'completed' && job.status !== 'failed';
}

/** SPEC §4: the page polls until done equals total (a job that has settled counts as done too). */
export function jobFinished(job: Pick<BulkJob, 'status' | 'generations_done' | 'generations_total'>): boolean {
  if (job.status === 'completed' || job.status === 'failed') return true;
  return job.generations_total > 0 && job.generations_done >= job.generations_total;
}

/** Nothing left to poll for: the job has finished and no image is still being post-processed (its spinner shows). */
export function jobSettled(job: BulkJob): boolean {
  return jobFinished(job) && !(job.generations ?? []).some((generation) => generation.images.some(fixesRunning));
}

export type GenerationOutcome =
  { state: 'images' } | { state: 'failed'; error: string | null } | { state: 'processing' };

/** SPEC §4: a generation with no images shows Failed with its error when its status is failed, else Processing. */
export function generationOutcome(generation: Pick<Generation, 'images' | 'metadata'>): GenerationOutcome {
  if (generation.images.length > 0) return { state: 'images' };
  if (generation.metadata?.status === 'failed') return { state: 'failed', error: generation.metadata.error || null };
  return { state: 'processing' };
}

/** The created time as the reader's locale writes it; an unreadable value is shown as given. */
export function formatCreatedAt(createdAt: string): string {
  const date = new Date(createdAt);
  return Number.isNaN(date.getTime()) ? createdAt : date.toLocaleString();
}
