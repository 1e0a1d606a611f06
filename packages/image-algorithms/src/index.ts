/*
 * Pixel algorithms shared by the generation service (run on its pixel thread) and the browser tools (run in web
 * workers): plain TypeScript over typed arrays, no Node or DOM API, so both bundle the same code.
 */
export { boxMean, type BoxEdges } from './box-mean';
export { colourGuidedFilter, type GuidedFilterOptions } from './guided-filter';
export { plane, type FloatPlane } from './plane';
export {
  dilate,
  erode,
  fillHoles,
  labelRegions,
  MAX_FILLED_HOLE_SHARE,
  type BinaryMask,
  type Connectivity,
} from './regions';
export { resampleRgbWindow, resampleWindow, resizeBilinear, type Window } from './resample';
export { seededRandom } from './seeded-random';
