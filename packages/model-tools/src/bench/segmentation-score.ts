import type { ProductCutout } from '@productgen/studio-engine/internals';

/** The cut-out's coverage over the whole photo as a mask (255 where its alpha is at least one half). */
export function cutoutCoverage(cutout: ProductCutout, width: number, height: number): Uint8Array {
  const mask = new Uint8Array(width * height);
  if (!cutout.segmented) return mask.fill(255);
  const { crop } = cutout;
  for (let y = 0; y < crop.height; y += 1) {
    for (let x = 0; x < crop.width; x += 1) {
      if (cutout.rgba[(y * crop.width + x) * 4 + 3]! >= 128) mask[(crop.top + y) * width + crop.left + x] = 255;
    }
  }
  return mask;
}

/** Intersection over union of two masks (set where non-zero); 1 when both are empty. */
export function maskIoU(predicted: ArrayLike<number>, truth: ArrayLike<number>): number {
  let intersection = 0;
  let union = 0;
  for (let k = 0; k < truth.length; k += 1) {
    const p = predicted[k]! > 0;
    const t = truth[k]! > 0;
    if (p && t) intersection += 1;
    if (p || t) union += 1;
  }
  return union === 0 ? 1 : intersection / union;
}
