import { refineMask } from '../algorithms/mask-refine';
import type { RunModel } from './model-runner';
import { rgbaToPlanar, type RgbaImage } from './tensors';

/** u2netp (MODELS.md): the whole image squeezed to 320×320, ImageNet normalisation, output d0 already sigmoid. */
export const SEGMENTATION_SIZE = 320;
const MEAN = [0.485, 0.456, 0.406];
const STD = [0.229, 0.224, 0.225];

/** Where a segmentation's time went, in milliseconds (the tools' benchmark reads it). */
export interface SegmentationTimings {
  /** The photo squeezed to the model's input and normalised. */
  prepare: number;
  inference: number;
  /** The model's mask made into the full-size alpha (refineMask). */
  refine: number;
}

/** The product's alpha at the image's own size (one byte per pixel), and where the time went. */
export async function segmentProduct(
  image: RgbaImage,
  run: RunModel,
): Promise<{ alpha: Uint8ClampedArray; timings: SegmentationTimings }> {
  const started = performance.now();
  const input = rgbaToPlanar(image, SEGMENTATION_SIZE, SEGMENTATION_SIZE, MEAN, STD);
  const prepared = performance.now();
  const { data } = await run(input, [1, 3, SEGMENTATION_SIZE, SEGMENTATION_SIZE]);
  const inferred = performance.now();
  const alpha = refineMask(image.data, image.width, image.height, data, SEGMENTATION_SIZE, SEGMENTATION_SIZE);
  const timings = { prepare: prepared - started, inference: inferred - prepared, refine: performance.now() - inferred };
  return { alpha, timings };
}

/** The image with the alpha applied: transparent background, or flattened onto an opaque colour. */
export function applyAlpha(
  image: RgbaImage,
  alpha: Uint8ClampedArray,
  background: { r: number; g: number; b: number } | null,
): Uint8ClampedArray {
  const out = new Uint8ClampedArray(image.data);
  for (let i = 0; i < alpha.length; i += 1) {
    if (!background) {
      out[4 * i + 3] = alpha[i];
      continue;
    }
    const a = alpha[i] / 255;
    out[4 * i] = Math.round(a * image.data[4 * i] + (1 - a) * background.r);
    out[4 * i + 1] = Math.round(a * image.data[4 * i + 1] + (1 - a) * background.g);
    out[4 * i + 2] = Math.round(a * image.data[4 * i + 2] + (1 - a) * background.b);
    out[4 * i + 3] = 255;
  }
  return out;
}
