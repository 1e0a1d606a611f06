/*
 * The studio engine's public API: analyse a photo, render a recipe. What the services and the marketing build use;
 * the maintainer tools (benches, calibration) and the engine's own tests reach further in through `./internals`.
 */
export { createStudioEngine, type StudioEngine, type StudioEngineOptions } from './engine';
export type { ProductAnalysis } from './analysis/classify';
export { checkReasons, isLowCutoutConfidence, type AnalysisHints } from './analysis/product-guess';
export type { ProductMatte } from './kernels/cutout';
export { encodeMattePng, grayscalePng } from './cutout/matte-png';
export { StudioRenderer, type StageTimes, type StudioOptions } from './render/studio';
export type { Backdrop, ProductSource, Rendered } from './render/compose';
export {
  familyOf,
  looks,
  planVariations,
  showcaseRecipes,
  styleRecipeSchema,
  type LookId,
  type StyleRecipe,
} from './styles';
export { hash32 } from './random';
export {
  int8KernelKinds,
  quantizedModels,
  type Int8KernelChoice,
  type Int8KernelPlan,
  type Int8Kernels,
  type QuantizedModel,
} from './models/int8-kernels';
export type { ModelSettings } from './models/model-sessions';
export {
  ensureModels,
  fetchModels,
  ModelFilesMissingError,
  MODELS_FETCH_COMMAND,
  type ModelFiles,
} from './models/model-store';
export { closeStudioThreads } from './threads/studio-threads';
