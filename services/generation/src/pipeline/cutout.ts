/*
 * The cut-out's matte refinement: pure functions of plain data, run on the pixel thread (no libvips here).
 */
import type { RgbImage } from '../imaging/decode';
import { estimateForeground, guidedFilter, removeIslands, tightenMatte } from '../imaging/matte';
import { boundsAbove, resizeBilinear, type FloatPlane } from '../imaging/raster';

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The product cut out of the photo: straight (not premultiplied) RGBA of a crop with a little margin. */
export interface ProductCutout {
  rgba: Buffer;
  width: number;
  height: number;
  /** The product itself (alpha ≥ 0.5) inside the crop: what layouts size and place. */
  box: Box;
  /** Where the crop sits in the decoded photo (for fidelity checks against the input). */
  crop: { left: number; top: number; width: number; height: number };
  /** False when the segmenter found nothing: the whole photo is then used as the product. */
  segmented: boolean;
  /** Mean luminance (0..1) of the solid product pixels; the light match uses it. */
  luminance: number;
}

/** Below this share of the frame the mask is taken as "nothing found". */
const MIN_PRODUCT_AREA = 0.004;

function luminancePlane(image: RgbImage, crop: ProductCutout['crop']): FloatPlane {
  const data = new Float32Array(crop.width * crop.height);
  for (let y = 0; y < crop.height; y += 1) {
    for (let x = 0; x < crop.width; x += 1) {
      const source = ((crop.top + y) * image.width + crop.left + x) * 3;
      data[y * crop.width + x] =
        (0.299 * image.data[source]! + 0.587 * image.data[source + 1]! + 0.114 * image.data[source + 2]!) / 255;
    }
  }
  return { data, width: crop.width, height: crop.height };
}

function cropRgb(image: RgbImage, crop: ProductCutout['crop']): Uint8Array {
  const out = new Uint8Array(crop.width * crop.height * 3);
  for (let y = 0; y < crop.height; y += 1) {
    const start = ((crop.top + y) * image.width + crop.left) * 3;
    out.set(image.data.subarray(start, start + crop.width * 3), y * crop.width * 3);
  }
  return out;
}

function cropPlane(source: FloatPlane, crop: ProductCutout['crop']): FloatPlane {
  const data = new Float32Array(crop.width * crop.height);
  for (let y = 0; y < crop.height; y += 1) {
    const start = (crop.top + y) * source.width + crop.left;
    data.set(source.data.subarray(start, start + crop.width), y * crop.width);
  }
  return { data, width: crop.width, height: crop.height };
}

function expand(box: Box, margin: number, width: number, height: number): ProductCutout['crop'] {
  const left = Math.max(0, Math.floor(box.left - margin));
  const top = Math.max(0, Math.floor(box.top - margin));
  const right = Math.min(width, Math.ceil(box.right + margin));
  const bottom = Math.min(height, Math.ceil(box.bottom + margin));
  return { left, top, width: right - left, height: bottom - top };
}

function wholePhoto(image: RgbImage): ProductCutout {
  const rgba = Buffer.alloc(image.width * image.height * 4, 255);
  let sum = 0;
  for (let k = 0; k < image.width * image.height; k += 1) {
    rgba[k * 4] = image.data[k * 3]!;
    rgba[k * 4 + 1] = image.data[k * 3 + 1]!;
    rgba[k * 4 + 2] = image.data[k * 3 + 2]!;
    sum += 0.299 * image.data[k * 3]! + 0.587 * image.data[k * 3 + 1]! + 0.114 * image.data[k * 3 + 2]!;
  }
  return {
    rgba,
    width: image.width,
    height: image.height,
    box: { left: 0, top: 0, right: image.width, bottom: image.height },
    crop: { left: 0, top: 0, width: image.width, height: image.height },
    segmented: false,
    luminance: sum / (255 * image.width * image.height),
  };
}

/** The matte refinement of `cutOutProduct` from the segmenter's coarse map (pixel thread). */
export function refineCutout(image: RgbImage, coarseMap: FloatPlane): ProductCutout {
  const coarse = removeIslands(coarseMap);
  const coarseBox = boundsAbove(coarse.data, coarse.width, coarse.height, 0.5);
  let area = 0;
  for (const value of coarse.data) if (value > 0.5) area += 1;
  if (!coarseBox || area < MIN_PRODUCT_AREA * coarse.data.length) return wholePhoto(image);

  const sx = image.width / coarse.width;
  const sy = image.height / coarse.height;
  const longSide = Math.max(image.width, image.height);
  const radius = Math.max(2, Math.round(longSide / 320));
  const softBox = boundsAbove(coarse.data, coarse.width, coarse.height, 0.05) ?? coarseBox;
  const crop = expand(
    { left: softBox.left * sx, top: softBox.top * sy, right: softBox.right * sx, bottom: softBox.bottom * sy },
    Math.round(longSide * 0.02) + radius * 2,
    image.width,
    image.height,
  );
  const full = resizeBilinear(coarse, image.width, image.height);
  const guided = guidedFilter(luminancePlane(image, crop), cropPlane(full, crop), radius, 4e-4);
  const alpha = tightenMatte(guided);
  const rgb = estimateForeground(cropRgb(image, crop), alpha);

  const tight = boundsAbove(alpha.data, crop.width, crop.height, 0.5);
  if (!tight) return wholePhoto(image);
  // Keep a margin for the soft edge, drop the rest: less to upscale and to resize later.
  const keep = expand(tight, Math.max(4, radius * 2), crop.width, crop.height);
  const rgba = Buffer.alloc(keep.width * keep.height * 4);
  let sum = 0;
  let solid = 0;
  for (let y = 0; y < keep.height; y += 1) {
    for (let x = 0; x < keep.width; x += 1) {
      const source = (keep.top + y) * crop.width + keep.left + x;
      const target = (y * keep.width + x) * 4;
      const a = alpha.data[source]!;
      rgba[target] = rgb[source * 3]!;
      rgba[target + 1] = rgb[source * 3 + 1]!;
      rgba[target + 2] = rgb[source * 3 + 2]!;
      rgba[target + 3] = Math.round(a * 255);
      if (a > 0.9) {
        solid += 1;
        sum += 0.299 * rgb[source * 3]! + 0.587 * rgb[source * 3 + 1]! + 0.114 * rgb[source * 3 + 2]!;
      }
    }
  }
  return {
    rgba,
    width: keep.width,
    height: keep.height,
    box: {
      left: tight.left - keep.left,
      top: tight.top - keep.top,
      right: tight.right - keep.left,
      bottom: tight.bottom - keep.top,
    },
    crop: { left: crop.left + keep.left, top: crop.top + keep.top, width: keep.width, height: keep.height },
    segmented: true,
    luminance: solid > 0 ? sum / (255 * solid) : 0.5,
  };
}
