// The create screen's progress arithmetic and texts (SPEC §4, §9), kept pure so every step is testable.
import type { GenerationStatus } from '@productgen/platform-client';
import { fixesRunning } from '../shared/images';

export const POLL_INTERVAL_MS = 2000;
export const MAX_POLLS = 60;
export const PROGRESS_STEP = 4;
export const PROGRESS_FLOOR = 18;
export const PROGRESS_CAP = 99;
/** Where the bar stands once the server has accepted the request and the product is being analysed. */
export const PROGRESS_ACCEPTED = 10;

export const TIMED_OUT_MESSAGE = 'Image creation timed out. Please try again.';

/** Shown (with the percentage) between 20% and 99%. */
export const CREATIVE_PHRASES: readonly string[] = [
  'Setting up the studio lights',
  'Styling your scene',
  'Arranging the props',
  'Finding the perfect angle',
  'Polishing reflections',
  'Mixing the backdrop colours',
  'Adding a touch of magic',
  'Softening the shadows',
];

/** A phrase for a random number in [0, 1) (Math.random by default). */
export function pickCreativePhrase(random: number = Math.random()): string {
  const index = Math.min(CREATIVE_PHRASES.length - 1, Math.max(0, Math.floor(random * CREATIVE_PHRASES.length)));
  return CREATIVE_PHRASES[index] ?? 'Making magic';
}

/** +4 per poll with a floor of 18, capped at 99 until the generation is done; 100 once done. */
export function progressAfterPoll(progress: number, done: boolean): number {
  if (done) return 100;
  return Math.min(PROGRESS_CAP, Math.max(PROGRESS_FLOOR, progress + PROGRESS_STEP));
}

export function progressText(progress: number, phrase: string): string {
  if (progress < 10) return 'Uploading photo...';
  if (progress < 20) return 'Analyzing product...';
  if (progress < 100) return `${phrase}... ${Math.round(progress)}%`;
  return 'Finalizing...';
}

/** Polling ends when the status is completed or failed and every image has finished its fixes. */
export function generationSettled(status: Pick<GenerationStatus, 'status' | 'images'>): boolean {
  return (status.status === 'completed' || status.status === 'failed') && !status.images.some(fixesRunning);
}

/** The 60th poll that still finds the generation unsettled is the last one. */
export function pollsExhausted(polls: number): boolean {
  return polls >= MAX_POLLS;
}
