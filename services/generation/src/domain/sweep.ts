import type { ReservationState } from '@productgen/contracts';
import { failureSummary } from './generation';

/*
 * The sweeper's decisions (DESIGN §4: explicit state machines with a sweeper for stuck states), kept free of I/O so
 * they can be tested on their own. A generation's credits end in exactly one of two ways: an image, or the image's
 * credit given back. A generation is finished (completed or failed) only once each of its images has ended so.
 */

/** What the sweeper needs to know of one image. */
export interface ImageProgress {
  index: number;
  final_key: string | null;
  error: string | null;
  refunded: boolean;
}

export type ImageOutcome = 'open' | 'finished' | 'give-back-owed' | 'given-back';

export function imageOutcome(image: ImageProgress): ImageOutcome {
  if (image.final_key !== null) return 'finished';
  if (image.error === null) return 'open';
  return image.refunded ? 'given-back' : 'give-back-owed';
}

/** Failed images whose credit billing has not confirmed given back yet. */
export function owedGiveBacks(images: readonly ImageProgress[]): number[] {
  return images.filter((image) => imageOutcome(image) === 'give-back-owed').map((image) => image.index);
}

/** Images neither made nor failed yet (a worker may still make them). */
export function openImages(images: readonly ImageProgress[]): number[] {
  return images.filter((image) => imageOutcome(image) === 'open').map((image) => image.index);
}

/** Every image ended as an image or a confirmed give-back: the generation may be finished. */
export function isSettled(images: readonly ImageProgress[]): boolean {
  return images.every((image) => {
    const outcome = imageOutcome(image);
    return outcome === 'finished' || outcome === 'given-back';
  });
}

/** The status answer's gen_error: null when every image was made; a failed generation always says why. */
export type GenerationOutcome = { stage: 'completed'; error: string | null } | { stage: 'failed'; error: string };

/** Shown when no image could be made and nothing is said about why. */
export const IMAGES_NOT_MADE_MESSAGE = 'The images could not be made.';

/** Completed when at least one image was made; the error says how many failed and that their credits came back. */
export function outcomeOf(images: readonly ImageProgress[]): GenerationOutcome {
  const finished = images.filter((image) => image.final_key !== null);
  const failed = images.filter((image) => image.final_key === null && image.error !== null);
  const error = failed.length > 0 ? failureSummary(failed.length, images.length, failed[0]!.error!) : null;
  if (finished.length > 0) return { stage: 'completed', error };
  return { stage: 'failed', error: error ?? IMAGES_NOT_MADE_MESSAGE };
}

/** gen_error of a creation that stopped before its credits were taken. */
export const NOTHING_CHARGED_MESSAGE = 'The images could not be made. No credits were taken; please try again.';

/** Reason given to the images of a job given up (its deliveries or re-queues ran out, or it was dead-lettered). */
export const GIVEN_UP_MESSAGE = 'The images could not be made in time.';

export type ReservingStep = 'queue' | 'fail' | 'wait';

/**
 * A creation stuck in `reserving` (its process stopped between the claim and the queued job): billing says whether
 * the credits were taken. Taken: queue the job, the images are owed. Nothing taken: the creation failed and nothing
 * is charged. Billing still applying it: ask again at the next sweep.
 */
export function decideReserving(state: ReservationState['state']): ReservingStep {
  switch (state) {
    case 'charged':
      return 'queue';
    case 'none':
      return 'fail';
    case 'pending':
      return 'wait';
  }
}

export interface StuckGeneration {
  /** The broker confirmed the render job at least once. */
  jobPublished: boolean;
  /** Times the sweeper already queued the job again. */
  requeues: number;
  images: readonly ImageProgress[];
}

export type StuckStep = 'publish' | 'settle' | 'requeue' | 'give-up';

/**
 * A queued or rendering generation with no progress past its bounded age:
 * - its job was never confirmed by the broker: publish it (the outbox; the same message id every time);
 * - nothing is left to render: give back what is owed and record the outcome;
 * - re-queues left: queue the same job again (rendering is deterministic and writes are idempotent);
 * - else give up: the unfinished images fail and their credits go back.
 */
export function decideStuck(generation: StuckGeneration, maxRequeues: number): StuckStep {
  if (!generation.jobPublished) return 'publish';
  if (openImages(generation.images).length === 0) return 'settle';
  if (generation.requeues < maxRequeues) return 'requeue';
  return 'give-up';
}
