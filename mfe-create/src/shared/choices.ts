// The count and preset choices both create tabs offer (SPEC §5, §9), as pure functions of the limits in force.
import type { CreateLimits } from './limits';

/** A creation makes at least one image; /configlist serves only the upper limits. */
export const MIN_IMAGES = 1;

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** A slider position, kept to a whole number of images from 1 to the most per creation. */
export function chosenCount(value: number, limits: CreateLimits): number {
  return clamp(Math.round(value), MIN_IMAGES, limits.maxImagesPerGeneration);
}

/** SPEC §9: credits clamped to 1 to the most per creation (5). */
export function defaultImageCount(credits: number | null, limits: CreateLimits): number {
  const max = limits.maxImagesPerGeneration;
  return clamp(Math.floor(credits ?? max), MIN_IMAGES, max);
}

/** Checks or unchecks a preset; one past the limit is refused (the other boxes are disabled at the limit). */
export function togglePreset(presetIds: string[], id: string, limits: CreateLimits): string[] {
  if (presetIds.includes(id)) return presetIds.filter((chosen) => chosen !== id);
  if (presetIds.length >= limits.maxPresetsPerGeneration) return presetIds;
  return [...presetIds, id];
}

export interface Choices {
  /** The slider position the user chose; null follows the default (credits clamped to 1–5). */
  countChoice: number | null;
  presetIds: string[];
}

/** The slider and checklist actions carry the limits the screen showed them under. */
export type ChoiceAction =
  | { type: 'countChosen'; count: number; limits: CreateLimits }
  | { type: 'presetToggled'; id: string; limits: CreateLimits }
  /** The presets on offer now: choices of presets that no longer exist are dropped. */
  | { type: 'presetsAvailable'; ids: string[] };

/** The steps both tabs' reducers take for the slider and the preset checklist. */
export function applyChoice<S extends Choices>(state: S, action: ChoiceAction): S {
  switch (action.type) {
    case 'countChosen':
      return { ...state, countChoice: chosenCount(action.count, action.limits) };
    case 'presetToggled':
      return { ...state, presetIds: togglePreset(state.presetIds, action.id, action.limits) };
    case 'presetsAvailable':
      return { ...state, presetIds: state.presetIds.filter((id) => action.ids.includes(id)) };
  }
}
