/*
 * The cut-out's matte refinement: pure functions of plain data, run on the pixel thread (no libvips here).
 */
import type { RgbImage } from '../imaging/decode';
import { estimateForeground, guidedFilter, removeIslands, tightenMatte } from '../imaging/matte';
import { boundsAbove, plane, resizeBilinear, type FloatPlane } from '../imaging/raster';

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

/**
 * The product's matte over the whole decoded photo (alpha 0..1, the photo's size) and how far it can be trusted.
 * `confidence` (0..1) is high when the segmenter's map is decisive (few values between background and product) and
 * the product is one or a few solid regions; the create screen opens the seller's brush when it is low.
 */
export interface ProductMatte {
  alpha: FloatPlane;
  confidence: number;
}

/** Share of the coarse map that is decisive (clearly product or clearly background). */
function decisiveShare(coarse: FloatPlane): number {
  let decisive = 0;
  for (const value of coarse.data) if (value < 0.1 || value > 0.9) decisive += 1;
  return decisive / coarse.data.length;
}

/**
 * The matte from the segmenter's coarse map: specks removed, the map upsampled and snapped to the photo's edges
 * (guided filter) inside the product's region, faint haze cleared. Undefined when nothing was found.
 */
export function productMatte(image: RgbImage, coarseMap: FloatPlane): ProductMatte | undefined {
  const coarse = removeIslands(coarseMap);
  const coarseBox = boundsAbove(coarse.data, coarse.width, coarse.height, 0.5);
  let area = 0;
  for (const value of coarse.data) if (value > 0.5) area += 1;
  if (!coarseBox || area < MIN_PRODUCT_AREA * coarse.data.length) return undefined;

  const sx = image.width / coarse.width;
  const sy = image.height / coarse.height;
  const radius = guideRadius(image);
  const softBox = boundsAbove(coarse.data, coarse.width, coarse.height, 0.05) ?? coarseBox;
  const crop = expand(
    { left: softBox.left * sx, top: softBox.top * sy, right: softBox.right * sx, bottom: softBox.bottom * sy },
    edgeMargin(image),
    image.width,
    image.height,
  );
  const full = resizeBilinear(coarse, image.width, image.height);
  const cropped = tightenMatte(guidedFilter(luminancePlane(image, crop), cropPlane(full, crop), radius, 4e-4));
  const alpha = plane(image.width, image.height);
  for (let y = 0; y < crop.height; y += 1) {
    alpha.data.set(
      cropped.data.subarray(y * crop.width, (y + 1) * crop.width),
      (crop.top + y) * image.width + crop.left,
    );
  }
  return { alpha, confidence: decisiveShare(coarse) };
}

/** Margin around the product's region in which its edges are refined. */
function edgeMargin(image: RgbImage): number {
  return Math.round(Math.max(image.width, image.height) * 0.02) + guideRadius(image) * 2;
}

/** Radius of the edge work (guided filter, margins) for a photo of this size. */
function guideRadius(image: RgbImage): number {
  return Math.max(2, Math.round(Math.max(image.width, image.height) / 320));
}

/**
 * The cut-out from a matte over the whole photo (the segmenter's, or the seller's corrected one): the product's
 * crop with a margin for the soft edge, edge colours freed of the old background, solid pixels unchanged.
 */
export function cutoutFromMatte(image: RgbImage, matte: FloatPlane): ProductCutout {
  const found = boundsAbove(matte.data, matte.width, matte.height, 0.5);
  if (!found) return wholePhoto(image);
  const radius = guideRadius(image);
  // Edge colours are estimated over a wider region than is kept, so the old background around the edge is seen.
  const region = expand(found, edgeMargin(image), image.width, image.height);
  const regionAlpha = cropPlane(matte, region);
  const rgb = estimateForeground(cropRgb(image, region), regionAlpha);
  const tight = {
    left: found.left - region.left,
    top: found.top - region.top,
    right: found.right - region.left,
    bottom: found.bottom - region.top,
  };
  // Keep a margin for the soft edge, drop the rest: less to upscale and to resize later.
  const keep = expand(tight, Math.max(4, radius * 2), region.width, region.height);
  const rgba = Buffer.alloc(keep.width * keep.height * 4);
  let sum = 0;
  let solid = 0;
  for (let y = 0; y < keep.height; y += 1) {
    for (let x = 0; x < keep.width; x += 1) {
      const source = (keep.top + y) * region.width + keep.left + x;
      const target = (y * keep.width + x) * 4;
      const a = regionAlpha.data[source]!;
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
    crop: { left: region.left + keep.left, top: region.top + keep.top, width: keep.width, height: keep.height },
    segmented: true,
    luminance: solid > 0 ? sum / (255 * solid) : 0.5,
  };
}

/**
 * The matte refinement of `cutOutProduct` from the segmenter's coarse map (pixel thread): the cut-out and the matte
 * it was made from (undefined when nothing was found), which analysis stores with the generation.
 */
export function refineCutout(
  image: RgbImage,
  coarseMap: FloatPlane,
): { cutout: ProductCutout; matte: ProductMatte | undefined } {
  const matte = productMatte(image, coarseMap);
  return { cutout: matte ? cutoutFromMatte(image, matte.alpha) : wholePhoto(image), matte };
}
