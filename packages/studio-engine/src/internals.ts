/*
 * The engine's inner parts, for the maintainer tools (packages/model-tools: benches, calibration, the contact sheet)
 * and tests that measure one stage: `@productgen/studio-engine/internals`. Services use the public API (index.ts).
 */
export * from './index';
export { categories, type CategoryId } from './analysis/categories';
export { classifyProduct, nameProduct, viewProduct } from './analysis/classify';
export { productInFileName } from './analysis/product-words';
export { categoryNouns } from './analysis/categories';
export { cutOutProduct, type ProductCutout } from './cutout/product';
export { imageNetInput, SEGMENTER_SIZE } from './cutout/segment';
export { decodeRgb, type RgbImage } from './kernels/decode';
export { keepPhotoStructure } from './kernels/detail';
export { SCALE } from './kernels/tiles';
export { sharpenWithAlpha, watermarkOverlay } from './render/finish';
export { upscale4x } from './render/upscale';
export { chooseInt8Kernels } from './models/int8-kernels';
export {
  closeInferenceThread,
  describeInt8Kernels,
  loadConfiguredRuntime,
  loadModelRuntime,
  openModel,
  type InferenceModel,
  type ModelRuntime,
} from './models/model-sessions';
export { findRepoRoot, resolveFromRoot } from './models/model-store';
export { float32Segmenter, segmenterActivations } from './models/segmentation-int8';
export { float32Upscaler, upscalerBends, upscalerConvOutputs } from './models/upscaler-int8';
export { pick, seededRandom } from './random';
