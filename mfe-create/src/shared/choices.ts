// The count and preset choices both create tabs offer (SPEC §5, §9), as pure functions.

export const MIN_IMAGES = 1;
export const MAX_IMAGES = 5;
export const MAX_PRESETS = 5;

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** A slider position, kept to a whole number of images from 1 to 5. */
export function chosenCount(value: number): number {
  return clamp(Math.round(value), MIN_IMAGES, MAX_IMAGES);
}

/** SPEC §9: credits clamped to 1–5. */
export function defaultImageCount(credits: number | null): number {
  return clamp(Math.floor(credits ?? MAX_IMAGES), MIN_IMAGES, MAX_IMAGES);
}

/** Checks or unchecks a preset; a sixth one is refused (the other boxes are disabled at five). */
export function togglePreset(presetIds: string[], id: string): string[] {
  if (presetIds.includes(id)) return presetIds.filter((chosen) => chosen !== id);
  if (presetIds.length >= MAX_PRESETS) return presetIds;
  return [...presetIds, id];
}

export interface Choices {
  /** The slider position the user chose; null follows the default (credits clamped to 1–5). */
  countChoice: number | null;
  presetIds: string[];
}

export type ChoiceAction =
  | { type: 'countChosen'; count: number }
  | { type: 'presetToggled'; id: string }
  /** The presets on offer now: choices of presets that no longer exist are dropped. */
  | { type: 'presetsAvailable'; ids: string[] };

/** The steps both tabs' reducers take for the slider and the preset checklist. */
export function applyChoice<S extends Choices>(state: S, action: ChoiceAction): S {
  switch (action.type) {
    case 'countChosen':
      return { ...state, countChoice: chosenCount(action.count) };
    case 'presetToggled':
      return { ...state, presetIds: togglePreset(state.presetIds, action.id) };
    case 'presetsAvailable':
      return { ...state, presetIds: state.presetIds.filter((id) => action.ids.includes(id)) };
  }
}
