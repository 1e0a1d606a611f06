// State of the Batch Create tab as a pure reducer, and the arithmetic of its progress and Create batch button.
import { applyChoice, type ChoiceAction } from '../shared/choices';
import { uniqueNames } from './files';

export interface BatchItem {
  id: string;
  /** Unique within the batch (SPEC §5): the name the image has in the uploaded zip. */
  name: string;
  file: Blob;
  /** An object URL of the file, for the preview grid; revoked when the item leaves. */
  previewUrl: string;
}

export type BatchStage = 'resizing' | 'zipping' | 'uploading' | 'done';

export interface BatchState {
  items: BatchItem[];
  /** The slider position the user chose; null follows the default (credits clamped to 1–5). */
  countChoice: number | null;
  presetIds: string[];
  working: boolean;
  stage: BatchStage | null;
  progress: number;
  error: string | null;
}

export const initialBatchState: BatchState = {
  items: [],
  countChoice: null,
  presetIds: [],
  working: false,
  stage: null,
  progress: 0,
  error: null,
};

export type BatchAction =
  | { type: 'added'; files: { id: string; name: string; file: Blob; previewUrl: string }[] }
  | { type: 'removed'; id: string }
  | { type: 'refused'; error: string }
  | ChoiceAction
  | { type: 'progressed'; stage: BatchStage; progress: number }
  | { type: 'failed'; error: string }
  | { type: 'errorDismissed' };

export function batchReducer(state: BatchState, action: BatchAction): BatchState {
  switch (action.type) {
    case 'added': {
      if (state.working) return state;
      const names = uniqueNames(
        state.items.map((item) => item.name),
        action.files.map((file) => file.name),
      );
      const added = action.files.map((file, index) => ({ ...file, name: names[index] ?? file.name }));
      return { ...state, items: [...state.items, ...added], error: null };
    }
    case 'removed':
      return state.working ? state : { ...state, items: state.items.filter((item) => item.id !== action.id) };
    case 'refused':
      return state.working ? state : { ...state, error: action.error };
    case 'countChosen':
    case 'presetToggled':
    case 'presetsAvailable':
      return applyChoice(state, action);
    case 'progressed':
      return { ...state, working: true, stage: action.stage, progress: action.progress, error: null };
    case 'failed':
      return { ...state, working: false, stage: null, progress: 0, error: action.error };
    case 'errorDismissed':
      return { ...state, error: null };
  }
}

export const STAGE_TEXT: Record<BatchStage, string> = {
  resizing: 'Resizing images...',
  zipping: 'Zipping files...',
  uploading: 'Uploading...',
  done: 'Uploading...',
};

/** SPEC §4: resizing moves the bar from 5 to 30 as the images are done. */
export function resizingProgress(resized: number, total: number): number {
  return total > 0 ? 5 + (25 * Math.min(resized, total)) / total : 5;
}

export const ZIPPING_PROGRESS = 60;

/** Uploading fills the rest of the bar as the bytes go out; 100 only once the server has answered. */
export function uploadingProgress(sentShare: number): number {
  return ZIPPING_PROGRESS + 39 * Math.min(1, Math.max(0, sentShare));
}

export type BatchButtonState = 'ready' | 'disabled' | 'working' | 'notEnoughCredits';

/** SPEC §5: disabled while working, with no images, or when credits are below images × per-product count. */
export function batchButtonState(
  { working, items }: Pick<BatchState, 'working' | 'items'>,
  { count, credits }: { count: number; credits: number | null },
): BatchButtonState {
  if (working) return 'working';
  if (items.length === 0) return 'disabled';
  if (credits !== null && credits < items.length * count) return 'notEnoughCredits';
  return 'ready';
}
