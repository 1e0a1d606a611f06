// State of the Single Image tab as a pure reducer: every transition the screen makes is a tested step.
import type { GeneratedImage, GenerationStatus, ImageAnalysis } from '@productgen/platform-client';
import {
  PROGRESS_ACCEPTED,
  TIMED_OUT_MESSAGE,
  generationSettled,
  pickCreativePhrase,
  pollsExhausted,
  progressAfterPoll,
} from './progress';
import { applyChoice, defaultImageCount, type ChoiceAction } from '../shared/choices';

export const FIRST_GENERATION_COUNT = 5;

export const NO_IMAGE_MESSAGE = 'No image selected';
export const START_FAILED_MESSAGE = 'An error occurred';
export const FETCH_FAILED_MESSAGE = 'An error while fetching created images';

export interface SingleState {
  /** The resized photo as a JPEG data URL. */
  photo: string | null;
  /** Bumped for every chosen photo, so a late analysis of an earlier photo is ignored. */
  photoToken: number;
  analysing: boolean;
  /** Null before analysis and after a failed one (product and category emptied). */
  analysis: ImageAnalysis | null;
  /** The slider position the user chose; null follows the default (credits clamped to 1–5). */
  countChoice: number | null;
  presetIds: string[];
  working: boolean;
  progress: number;
  phrase: string;
  polls: number;
  /** How many images the running or last creation asked for (placeholders until they arrive). */
  requested: number;
  /** The generation being created or last created (what downloads and presets refer to). */
  generationUuid: string | null;
  images: GeneratedImage[];
  selectedId: string | null;
  hasWatermark: boolean;
  /** A generation has settled since the last photo was chosen (the site-URL tip may show). */
  finished: boolean;
  error: string | null;
}

export const initialSingleState: SingleState = {
  photo: null,
  photoToken: 0,
  analysing: false,
  analysis: null,
  countChoice: null,
  presetIds: [],
  working: false,
  progress: 0,
  phrase: '',
  polls: 0,
  requested: 0,
  generationUuid: null,
  images: [],
  selectedId: null,
  hasWatermark: false,
  finished: false,
  error: null,
};

export type SingleAction =
  | { type: 'photoChosen'; photo: string; token: number }
  | { type: 'photoRejected'; error: string }
  | { type: 'analysed'; token: number; analysis: ImageAnalysis }
  | { type: 'analysisFailed'; token: number; error: string }
  | ChoiceAction
  | { type: 'startRequested'; count: number; random: number }
  | { type: 'startRefused'; error: string }
  | { type: 'startAccepted'; generationUuid: string }
  | { type: 'startFailed'; error: string | null }
  | { type: 'polled'; status: GenerationStatus; random: number }
  | { type: 'pollFailed'; error: string | null }
  | { type: 'imageSelected'; id: string }
  | { type: 'errorDismissed' };

/** The first image when nothing (or a vanished image) was selected; otherwise the selection stays. */
export function keepSelection(images: readonly GeneratedImage[], selectedId: string | null): string | null {
  if (selectedId !== null && images.some((image) => image.id === selectedId)) return selectedId;
  return images[0]?.id ?? null;
}

// A new phrase every few polls keeps the text alive without flickering on every update.
const POLLS_PER_PHRASE = 4;

function afterPoll(state: SingleState, status: GenerationStatus, random: number): SingleState {
  const settled = generationSettled(status);
  const polls = state.polls + 1;
  const images = status.images;
  const genError = status.gen_error ? status.gen_error : null;
  const failedWithoutMessage = settled && status.status === 'failed' && images.length === 0 && !genError;
  const next: SingleState = {
    ...state,
    polls,
    images,
    selectedId: keepSelection(images, state.selectedId),
    hasWatermark: status.has_watermark,
    progress: progressAfterPoll(state.progress, settled),
    phrase: polls % POLLS_PER_PHRASE === 0 ? pickCreativePhrase(random) : state.phrase,
    error: genError ?? (failedWithoutMessage ? START_FAILED_MESSAGE : state.error),
  };
  if (settled) return { ...next, working: false, finished: true };
  if (pollsExhausted(polls)) return { ...next, working: false, error: TIMED_OUT_MESSAGE };
  return next;
}

export function singleReducer(state: SingleState, action: SingleAction): SingleState {
  switch (action.type) {
    case 'photoChosen':
      // A new photo starts a new creation: earlier results, choices and messages no longer apply.
      if (state.working) return state;
      return {
        ...initialSingleState,
        countChoice: state.countChoice,
        photo: action.photo,
        photoToken: action.token,
        analysing: true,
      };
    case 'photoRejected':
      return state.working ? state : { ...state, error: action.error };
    case 'analysed':
      if (action.token !== state.photoToken) return state;
      return { ...state, analysing: false, analysis: action.analysis, error: null };
    case 'analysisFailed':
      if (action.token !== state.photoToken) return state;
      return { ...state, analysing: false, analysis: null, presetIds: [], error: action.error };
    case 'countChosen':
    case 'presetToggled':
    case 'presetsAvailable':
      return applyChoice(state, action);
    case 'startRequested':
      return {
        ...state,
        working: true,
        progress: 0,
        polls: 0,
        requested: action.count,
        phrase: pickCreativePhrase(action.random),
        generationUuid: null,
        images: [],
        selectedId: null,
        hasWatermark: false,
        finished: false,
        error: null,
      };
    case 'startRefused':
      return { ...state, error: action.error };
    case 'startAccepted':
      return { ...state, generationUuid: action.generationUuid, progress: PROGRESS_ACCEPTED };
    case 'startFailed':
      return { ...state, working: false, progress: 0, error: action.error || START_FAILED_MESSAGE };
    case 'polled':
      return state.working ? afterPoll(state, action.status, action.random) : state;
    case 'pollFailed':
      if (!state.working) return state;
      return { ...state, working: false, error: action.error || FETCH_FAILED_MESSAGE };
    case 'imageSelected':
      return state.images.some((image) => image.id === action.id) ? { ...state, selectedId: action.id } : state;
    case 'errorDismissed':
      return { ...state, error: null };
  }
}

/** SPEC §8: "No image selected" when Create is asked for with neither a photo nor an analysis. */
export function startRefusal(state: Pick<SingleState, 'photo' | 'analysis'>): string | null {
  return !state.photo && !state.analysis ? NO_IMAGE_MESSAGE : null;
}

export interface CountInputs {
  firstGeneration: boolean;
  credits: number | null;
  countChoice: number | null;
  presetCount: number;
}

/** How many images Create asks for: 5 on a first generation; one per chosen preset; else the slider. */
export function imageCount({ firstGeneration, credits, countChoice, presetCount }: CountInputs): number {
  if (firstGeneration) return FIRST_GENERATION_COUNT;
  if (presetCount > 0) return presetCount;
  return countChoice ?? defaultImageCount(credits);
}

export function isKnownCategory(categoryId: string | undefined, knownIds: readonly string[] | null): boolean {
  if (!categoryId || categoryId.trim() === '' || categoryId === 'unknown') return false;
  // Until the category list has loaded (or if it cannot be), the analysis is taken at its word.
  return knownIds === null || knownIds.includes(categoryId);
}

export type CreateButtonState = 'ready' | 'disabled' | 'working' | 'outOfCredits';

/** SPEC §5: disabled while working, with no image, during analysis or with an unknown category. */
export function createButtonState(
  state: Pick<SingleState, 'working' | 'photo' | 'analysing' | 'analysis'>,
  { count, credits, categoryKnown }: { count: number; credits: number | null; categoryKnown: boolean },
): CreateButtonState {
  if (state.working) return 'working';
  if (credits !== null && credits < count) return 'outOfCredits';
  if (!state.photo || state.analysing || !state.analysis || !categoryKnown) return 'disabled';
  return 'ready';
}
