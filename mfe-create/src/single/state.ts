// State of the Single Image tab as a pure reducer: every transition the screen makes is a tested step.
import { limits } from '@productgen/contracts/limits';
import type { CategoryId, GeneratedImage, GenerationStatus, ImageAnalysis } from '@productgen/platform-client';
import {
  PROGRESS_ACCEPTED,
  TIMED_OUT_MESSAGE,
  generationSettled,
  pickCreativePhrase,
  pollsExhausted,
  progressAfterPoll,
} from './progress';
import { applyChoice, defaultImageCount, type ChoiceAction } from '../shared/choices';
import type { CreateLimits } from '../shared/limits';

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
  /** The product name and category as the seller has them (the analysis's until edited); null without analysis. */
  edits: ProductEdits | null;
  /** A creation from this photo was accepted: its cut-out, name and category are saved and can no longer change. */
  createdFromPhoto: boolean;
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

/** What the seller may correct of the analysis before Create. */
export interface ProductEdits {
  object: string;
  category: CategoryId;
}

/** The longest product name the API takes (not in the SPEC; the contracts' limit). */
export const PRODUCT_NAME_MAX_LENGTH = limits.productNameMaxLength;

export const initialSingleState: SingleState = {
  photo: null,
  photoToken: 0,
  analysing: false,
  analysis: null,
  edits: null,
  createdFromPhoto: false,
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
  | { type: 'objectEdited'; object: string }
  | { type: 'categoryEdited'; category: CategoryId }
  | { type: 'analysisCorrected'; analysis: ImageAnalysis }
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
      return {
        ...state,
        analysing: false,
        analysis: action.analysis,
        edits: { object: action.analysis.object, category: action.analysis.category },
        error: null,
      };
    case 'analysisFailed':
      if (action.token !== state.photoToken) return state;
      return { ...state, analysing: false, analysis: null, edits: null, presetIds: [], error: action.error };
    case 'objectEdited':
      if (!state.edits || state.createdFromPhoto || state.working) return state;
      return { ...state, edits: { ...state.edits, object: action.object.slice(0, PRODUCT_NAME_MAX_LENGTH) } };
    case 'categoryEdited':
      // Presets belong to a category: the chosen ones go with the old category.
      if (!state.edits || state.createdFromPhoto || state.working) return state;
      return { ...state, edits: { ...state.edits, category: action.category }, presetIds: [] };
    case 'analysisCorrected':
      return {
        ...state,
        analysis: action.analysis,
        edits: { object: action.analysis.object, category: action.analysis.category },
      };
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
      return { ...state, generationUuid: action.generationUuid, progress: PROGRESS_ACCEPTED, createdFromPhoto: true };
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

/**
 * The seller's corrections still to save before Create: the name (trimmed) and category that differ from the
 * analysis. Null when there are none, or once a creation from this photo has saved them.
 */
export function pendingCorrections(
  state: Pick<SingleState, 'analysis' | 'edits' | 'createdFromPhoto'>,
): Partial<ProductEdits> | null {
  if (!state.analysis || !state.edits || state.createdFromPhoto) return null;
  const changes: Partial<ProductEdits> = {};
  const object = state.edits.object.trim();
  if (object !== state.analysis.object) changes.object = object;
  if (state.edits.category !== state.analysis.category) changes.category = state.edits.category;
  return Object.keys(changes).length > 0 ? changes : null;
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
  limits: CreateLimits;
}

/** How many images Create asks for: 5 on a first generation; one per chosen preset; else the slider. */
export function imageCount({ firstGeneration, credits, countChoice, presetCount, limits }: CountInputs): number {
  if (firstGeneration) return FIRST_GENERATION_COUNT;
  if (presetCount > 0) return presetCount;
  return countChoice ?? defaultImageCount(credits, limits);
}

export function isKnownCategory(categoryId: string | undefined, knownIds: readonly string[] | null): boolean {
  if (!categoryId || categoryId.trim() === '' || categoryId === 'unknown') return false;
  // Until the category list has loaded (or if it cannot be), the analysis is taken at its word.
  return knownIds === null || knownIds.includes(categoryId);
}

export type CreateButtonState = 'ready' | 'disabled' | 'working' | 'outOfCredits';

/** SPEC §5: disabled while working, with no image, during analysis or with an unknown category. */
export function createButtonState(
  state: Pick<SingleState, 'working' | 'photo' | 'analysing' | 'analysis'> & Partial<Pick<SingleState, 'edits'>>,
  { count, credits, categoryKnown }: { count: number; credits: number | null; categoryKnown: boolean },
): CreateButtonState {
  if (state.working) return 'working';
  if (credits !== null && credits < count) return 'outOfCredits';
  if (!state.photo || state.analysing || !state.analysis || !categoryKnown) return 'disabled';
  // A product needs a name (the field says so).
  if (state.edits && state.edits.object.trim() === '') return 'disabled';
  return 'ready';
}
