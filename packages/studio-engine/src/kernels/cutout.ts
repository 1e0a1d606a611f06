/*
 * The cut-out's matte refinement: pure functions of plain data, run on the pixel thread (no libvips here).
 */
import {
  boxMean,
  colourGuidedFilter,
  dilate,
  erode,
  fillHoles,
  MAX_FILLED_HOLE_SHARE,
  labelRegions,
  plane,
  resampleRgbWindow,
  resampleWindow,
  resizeBilinear,
  type BinaryMask,
  type FloatPlane,
} from '@productgen/image-algorithms';
import { decodeRgb, type RgbImage } from './decode';
import { decodeMattePng } from '../cutout/matte-png';
import {
  colourLikelihood,
  estimateForeground,
  EVEN_COLOUR_DENSITY,
  fitColourModel,
  maskAbove,
  removeIslands,
  tightenMatte,
  type ColourModel,
} from './matte';
import { asBuffer, sharedBuffer } from '../threads/shared-memory';
import { boundsAbove } from './raster';
import type { Region } from '../cutout/segment';

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
  const rgba = sharedBuffer(image.width * image.height * 4).fill(255);
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

/** The segmenter's second look: its map of one region of the photo (the product with a margin, larger in frame). */
export interface CloseUp {
  region: Region;
  map: FloatPlane;
}

/** Long side of the grid the colour models and the product's regions are worked out on. */
const WORK_SIDE = 384;
/** Above this value of its map the segmenter is taken as sure of the product. */
const SURE = 0.85;
/** Beyond this share of the photo, a close-up would see nearly the same picture: it is not taken. */
const MAX_CLOSE_UP_SHARE = 0.7;
/** Weight of the close-up map against the whole photo's map where both saw the pixel. */
const CLOSE_UP_WEIGHT = 0.65;
/** How far the colour models may move the segmenter's belief, in logit units (they are over-sure on their own). */
const COLOUR_SAY = 3;
/**
 * Share of each side's colours that its mixture has not seen (spread evenly over the RGB cube). The background is
 * sampled all around the product, the product only where the segmenter is sure, so a colour unlike any of the
 * background's leans to the product: a pale cap on a dark bottle that the segmenter only half saw.
 */
const UNSEEN_PRODUCT_COLOURS = 0.05 * EVEN_COLOUR_DENSITY;
const UNSEEN_BACKGROUND_COLOURS = 0.01 * EVEN_COLOUR_DENSITY;

/** The product's region in the photo from a coarse map: its soft bounds with a margin, clamped to the photo. */
function productRegion(coarse: FloatPlane, width: number, height: number, margin: number): Region | undefined {
  const box = boundsAbove(coarse.data, coarse.width, coarse.height, 0.3);
  if (!box) return undefined;
  const sx = width / coarse.width;
  const sy = height / coarse.height;
  const scaled = { left: box.left * sx, top: box.top * sy, right: box.right * sx, bottom: box.bottom * sy };
  return expand(scaled, margin * Math.max(scaled.right - scaled.left, scaled.bottom - scaled.top) + 8, width, height);
}

/**
 * Where the segmenter should look a second time: the product found on the whole photo with a margin, when it fills
 * little enough of the frame for a close-up to add detail. Undefined when nothing was found or it fills the frame.
 */
export function closeUpRegion(coarseMap: FloatPlane, width: number, height: number): Region | undefined {
  const region = productRegion(removeIslands(coarseMap), width, height, 0.18);
  if (!region || region.width * region.height > MAX_CLOSE_UP_SHARE * width * height) return undefined;
  return region;
}

/** Share of a side's length along which the product must reach it for the close-up to be taken as cutting it. */
const SPILL_SHARE = 0.02;
/**
 * When the close-up finds more than this many times the product the whole photo's map saw in the same region, the
 * whole photo only hinted at the product (a white strap on a dark cloth: 235 times on the benchmark, otherwise at most
 * 1.25), so the close-up's bounds, made from that hint, say little about where the product ends.
 */
const HINTED_ONLY = 2;
/** Then, depth of the band along each side of the close-up in which the product counts as running out of it. */
const SPILL_BAND = 0.075;

/**
 * When the close-up shows the product running into one of its sides that is not the photo's edge (the whole photo's
 * map only hinted at the product's extent: a white strap on a dark cloth), the region grown on those sides by half
 * its size, for one more look. Undefined when the product lies inside the close-up. When the whole photo's map
 * (`coarse`) hardly saw the product, the segmenter's fading of what the frame cuts is allowed for: the product
 * counts as running out when its soft extent comes within a narrow band of a side, and when it does so near a corner
 * it is heading there (a strap lying diagonally), so the other side of that corner grows too.
 */
export function grownCloseUp(closeUp: CloseUp, coarse: FloatPlane, width: number, height: number): Region | undefined {
  const { region, map } = closeUp;
  const wide = resampleWindow(
    coarse,
    {
      left: (region.left * coarse.width) / width,
      top: (region.top * coarse.height) / height,
      width: (region.width * coarse.width) / width,
      height: (region.height * coarse.height) / height,
    },
    map.width,
    map.height,
  );
  let seenWide = 0;
  let seenClose = 0;
  for (let k = 0; k < map.data.length; k += 1) {
    if (wide.data[k]! > 0.5) seenWide += 1;
    if (map.data[k]! > 0.5) seenClose += 1;
  }
  const hinted = seenClose > HINTED_ONLY * seenWide;
  const threshold = hinted ? 0.3 : 0.5;
  const bandX = hinted ? Math.max(1, Math.round(map.width * SPILL_BAND)) : 1;
  const bandY = hinted ? Math.max(1, Math.round(map.height * SPILL_BAND)) : 1;
  const at = (x: number, y: number) => map.data[y * map.width + x]! > threshold;
  // Per side: the positions along it (0..1) where the product reaches into its band.
  const reachAlong = (length: number, depth: number, inBand: (along: number, depth: number) => boolean) => {
    const positions: number[] = [];
    for (let i = 0; i < length; i += 1) {
      for (let d = 0; d < depth; d += 1) {
        if (inBand(i, d)) {
          positions.push((i + 0.5) / length);
          break;
        }
      }
    }
    return positions;
  };
  const reach = {
    left: reachAlong(map.height, bandX, (y, d) => at(d, y)),
    right: reachAlong(map.height, bandX, (y, d) => at(map.width - 1 - d, y)),
    top: reachAlong(map.width, bandY, (x, d) => at(x, d)),
    bottom: reachAlong(map.width, bandY, (x, d) => at(x, map.height - 1 - d)),
  };
  const open = {
    left: region.left > 0,
    right: region.left + region.width < width,
    top: region.top > 0,
    bottom: region.top + region.height < height,
  };
  const out = {
    left: open.left && reach.left.length > SPILL_SHARE * map.height,
    right: open.right && reach.right.length > SPILL_SHARE * map.height,
    top: open.top && reach.top.length > SPILL_SHARE * map.width,
    bottom: open.bottom && reach.bottom.length > SPILL_SHARE * map.width,
  };
  // Heading for a corner: all of the product's reach into a side's band lies in the quarter next to that corner.
  const towards = (side: keyof typeof reach, start: boolean) =>
    hinted && out[side] && reach[side].every((along) => (start ? along < 0.25 : along > 0.75));
  const spills = {
    left: out.left || (open.left && (towards('top', true) || towards('bottom', true))),
    right: out.right || (open.right && (towards('top', false) || towards('bottom', false))),
    top: out.top || (open.top && (towards('left', true) || towards('right', true))),
    bottom: out.bottom || (open.bottom && (towards('left', false) || towards('right', false))),
  };
  if (!spills.left && !spills.right && !spills.top && !spills.bottom) return undefined;
  const left = Math.max(0, Math.floor(region.left - (spills.left ? region.width / 2 : 0)));
  const top = Math.max(0, Math.floor(region.top - (spills.top ? region.height / 2 : 0)));
  const right = Math.min(width, Math.ceil(region.left + region.width * (spills.right ? 1.5 : 1)));
  const bottom = Math.min(height, Math.ceil(region.top + region.height * (spills.bottom ? 1.5 : 1)));
  return { left, top, width: right - left, height: bottom - top };
}

const logit = (p: number) => Math.log(p / (1 - p));

/** Up to `limit` colours of the cells `take` picks, evenly spread over them: what a colour mixture is fitted to. */
function sampleColours(
  colours: Float32Array,
  cells: number,
  take: (cell: number) => boolean,
  limit = 3000,
): Float32Array {
  const picked: number[] = [];
  for (let k = 0; k < cells; k += 1) if (take(k)) picked.push(k);
  const stride = Math.max(1, Math.floor(picked.length / limit));
  const out = new Float32Array(Math.ceil(picked.length / stride) * 3);
  let n = 0;
  for (let i = 0; i < picked.length; i += stride, n += 1)
    out.set(colours.subarray(picked[i]! * 3, picked[i]! * 3 + 3), n * 3);
  return out.subarray(0, n * 3);
}

/** Log of how much likelier a colour is under the product's mixture than under the background's, unseen colours included. */
function colourEvidence(
  productModel: ColourModel,
  backgroundModel: ColourModel,
  colours: Float32Array,
  cell: number,
): number {
  const r = colours[cell * 3]!;
  const g = colours[cell * 3 + 1]!;
  const b = colours[cell * 3 + 2]!;
  return Math.log(
    (colourLikelihood(productModel, r, g, b) + UNSEEN_PRODUCT_COLOURS) /
      (colourLikelihood(backgroundModel, r, g, b) + UNSEEN_BACKGROUND_COLOURS),
  );
}

/**
 * GrabCut-style colour refinement on the work grid: Gaussian mixtures of the product's and the background's colours,
 * learnt where the segmenter is sure, move its belief where it is not (a white body under a salient lid, grass that
 * touches the product). The segmenter's map is the prior, the colour likelihood ratio the evidence, bounded by
 * COLOUR_SAY. Returns the product's probability per cell, smoothed over its neighbours.
 */
export function colourRefine(colours: Float32Array, prior: FloatPlane): FloatPlane {
  const { width, height, data } = prior;
  const product = sampleColours(colours, data.length, (k) => data[k]! > SURE);
  const background = sampleColours(colours, data.length, (k) => data[k]! < 0.1);
  if (product.length < 3 * 64 || background.length < 3 * 64) return prior;
  const productModel = fitColourModel(product);
  const backgroundModel = fitColourModel(background);
  const belief = new Float32Array(data.length);
  // Where the segmenter is surer than the colours may move it, its belief stands: no need to weigh the colours.
  const settled = 1 / (1 + Math.exp(COLOUR_SAY));
  for (let k = 0; k < data.length; k += 1) {
    const p = Math.min(0.97, Math.max(0.03, data[k]!));
    if (p <= settled || p >= 1 - settled) {
      belief[k] = p;
      continue;
    }
    const evidence = colourEvidence(productModel, backgroundModel, colours, k);
    const shifted = logit(p) + Math.max(-COLOUR_SAY, Math.min(COLOUR_SAY, 0.5 * evidence));
    belief[k] = 1 / (1 + Math.exp(-shifted));
  }
  return { data: boxMean(belief, width, height, 1, 'repeat'), width, height };
}

/**
 * The product's cells on the work grid: the refined belief above one half, keeping every region of a multi-item
 * product that the segmenter saw (a row of cupcakes) but not colour-alike background it never marked, holes filled
 * up to a small share of the product (not a mug handle's loop). With the colours, a region beside the product is
 * also dropped when its colours are the background's or not the product's (a knot in a wooden table) or its outline
 * is blurred where the product's is sharp (an out-of-focus object in front). Also how many specks were dropped, for
 * the confidence.
 */
export function productCells(
  belief: FloatPlane,
  prior: FloatPlane,
  colours?: Float32Array,
): { mask: BinaryMask; droppedShare: number; regions: number } {
  const { width, height } = belief;
  const mask = maskAbove(belief.data, 0.5);
  if (colours) dropStrayCores(mask, width, height, colours, prior);
  const { labels, sizes } = labelRegions(mask, width);
  const keep = significantRegions(labels, sizes, prior);
  let kept = 0;
  let dropped = 0;
  for (let k = 0; k < mask.length; k += 1) {
    const label = labels[k]!;
    if (label < 0) continue;
    if (keep[label]) kept += 1;
    else {
      mask[k] = 0;
      dropped += 1;
    }
  }
  return {
    mask: fillHoles(mask, width, height, MAX_FILLED_HOLE_SHARE),
    droppedShare: kept > 0 ? dropped / kept : 1,
    regions: keep.filter(Boolean).length,
  };
}

/** The regions the segmenter marked (some cell above one half) and not tiny next to the largest such region. */
function significantRegions(labels: Int32Array, sizes: number[], prior: FloatPlane): boolean[] {
  const salient = new Uint8Array(sizes.length);
  for (let k = 0; k < labels.length; k += 1) if (labels[k]! >= 0 && prior.data[k]! > 0.5) salient[labels[k]!] = 1;
  const largest = Math.max(0, ...sizes.filter((_, label) => salient[label]));
  return sizes.map((size, label) => salient[label] === 1 && size >= largest * 0.05);
}

/** Erosion radius, in work-grid cells, that parts a product from a background blob touching it. */
const CORE_RADIUS = 2;

/**
 * Drops background blobs the segmenter marked beside the product, even when they touch it (a knot in a wooden
 * table next to a watch): the mask is eroded so touching blobs part into cores, the cores are judged (dropStrays),
 * and the cells near a dropped core and near no kept one are cleared. Thin parts (a lamp's stem) vanish in the
 * erosion but are near no dropped core, so they stay.
 */
function dropStrayCores(
  mask: BinaryMask,
  width: number,
  height: number,
  colours: Float32Array,
  prior: FloatPlane,
): void {
  const core = erode(mask, width, height, CORE_RADIUS);
  const { labels, sizes } = labelRegions(core, width);
  const keep = significantRegions(labels, sizes, prior);
  if (keep.filter(Boolean).length < 2) return;
  const judged = [...keep];
  dropStrays(judged, sizes, labels, core, colours, prior);
  const cellsOf = (pick: (label: number) => boolean) =>
    dilate(
      Uint8Array.from(labels, (label) => (label >= 0 && pick(label) ? 1 : 0)),
      width,
      height,
      CORE_RADIUS + 1,
    );
  const nearKept = cellsOf((label) => judged[label]!);
  const nearDropped = cellsOf((label) => keep[label]! && !judged[label]);
  for (let k = 0; k < mask.length; k += 1) if (nearDropped[k] && !nearKept[k]) mask[k] = 0;
}

/**
 * How much worse (mean log density, nats per cell) the anchor's colour mixture may explain another region than it
 * explains the anchor itself: copies of the product or its parts are explained about as well (within 2 nats on the
 * benchmark), a salient piece of the backdrop (a knot in a wooden table) 3.4 nats or more worse, and the segmenter
 * is less sure of it (85-93 % of its cells above SURE, against all but none of the product's).
 */
const UNLIKE_ANCHOR = 2.5;

/** Below this share of the anchor region's edge sharpness, another region is taken as out of focus. */
const DEFOCUS_RATIO = 0.4;

/**
 * Unmarks the regions that look like background or are out of focus (see productCells). The largest region, the
 * anchor, always stays; another stays when its colours are likelier under the anchor's colour mixture than under the
 * background's, that mixture explains them nearly as well as the anchor's own (a copy of the product, a part of it;
 * not a knot whose colours neither mixture has seen, which the unseen-colour allowance would lean to the product) and
 * its outline is about as sharp.
 */
function dropStrays(
  keep: boolean[],
  sizes: number[],
  labels: Int32Array,
  mask: BinaryMask,
  colours: Float32Array,
  prior: FloatPlane,
): void {
  const { width, height } = prior;
  const background = sampleColours(colours, labels.length, (k) => prior.data[k]! < 0.1);
  if (background.length < 3 * 64) return;
  const backgroundModel = fitColourModel(background);

  const edge = new Float64Array(keep.length);
  const edgeCells = new Float64Array(keep.length);
  const luma = (k: number) => 0.299 * colours[k * 3]! + 0.587 * colours[k * 3 + 1]! + 0.114 * colours[k * 3 + 2]!;
  for (let k = 0; k < labels.length; k += 1) {
    const label = labels[k]!;
    if (label < 0 || !keep[label]) continue;
    const x = k % width;
    const y = (k - x) / width;
    if (x === 0 || y === 0 || x === width - 1 || y === height - 1) continue;
    // An outline cell: the luminance step across it, steep for a sharp edge, gentle for a blurred one.
    if (mask[k - 1] && mask[k + 1] && mask[k - width] && mask[k + width]) continue;
    edge[label]! += Math.hypot(luma(k + 1) - luma(k - 1), luma(k + width) - luma(k - width));
    edgeCells[label]! += 1;
  }
  const anchor = sizes.reduce((best, size, label) => (keep[label] && size > (sizes[best] ?? -1) ? label : best), -1);
  const anchorModel = fitColourModel(sampleColours(colours, labels.length, (k) => labels[k] === anchor));
  // Per region, on every other cell: the colour evidence for the product against the background, how well the
  // anchor's mixture explains its colours (mean log density, floored as for an unseen colour) and how many of its
  // cells the segmenter is sure of.
  const evidence = new Float64Array(keep.length);
  const explained = new Float64Array(keep.length);
  const sampled = new Float64Array(keep.length);
  const sure = new Float64Array(keep.length);
  for (let k = 0; k < labels.length; k += 2) {
    const label = labels[k]!;
    if (label < 0 || !keep[label]) continue;
    const r = colours[k * 3]!;
    const g = colours[k * 3 + 1]!;
    const b = colours[k * 3 + 2]!;
    explained[label]! += Math.log(colourLikelihood(anchorModel, r, g, b) + UNSEEN_BACKGROUND_COLOURS);
    sampled[label]! += 1;
    if (prior.data[k]! > SURE) sure[label]! += 1;
    if (label !== anchor) evidence[label]! += colourEvidence(anchorModel, backgroundModel, colours, k);
  }
  const fit = (label: number) => explained[label]! / Math.max(1, sampled[label]!);
  const sureShare = (label: number) => sure[label]! / Math.max(1, sampled[label]!);
  const sharpness = (label: number) => edge[label]! / Math.max(1, edgeCells[label]!);
  keep.forEach((kept, label) => {
    if (!kept || label === anchor) return;
    const looksLikeBackground = evidence[label]! < 0;
    // One of two so unlike regions is not the product: the anchor is taken as it unless the segmenter is surer of the
    // other (a salient blob larger than the product), when both stay.
    const unlikeAnchor = fit(label) < fit(anchor) - UNLIKE_ANCHOR && sureShare(label) <= sureShare(anchor);
    const blurred = sharpness(label) < DEFOCUS_RATIO * sharpness(anchor);
    if (looksLikeBackground || unlikeAnchor || blurred) keep[label] = false;
  });
}

/**
 * How far the matte can be trusted (0..1): the segmenter's map decisive over the product's region, its two looks
 * agreeing (IoU of whole-photo and close-up maps), and the product one or a few solid regions rather than scattered
 * specks. The create screen opens the seller's brush when it is low.
 */
function matteConfidence(
  wide: FloatPlane,
  close: FloatPlane | undefined,
  fused: FloatPlane,
  cells: ReturnType<typeof productCells>,
): number {
  let decisive = 0;
  for (const value of fused.data) if (value < 0.15 || value > 0.85) decisive += 1;
  let agreement = 1;
  if (close) {
    let both = 0;
    let either = 0;
    for (let k = 0; k < wide.data.length; k += 1) {
      const a = wide.data[k]! > 0.5;
      const b = close.data[k]! > 0.5;
      if (a && b) both += 1;
      if (a || b) either += 1;
    }
    agreement = either > 0 ? both / either : 0;
  }
  const fragmentation =
    Math.min(1, cells.droppedShare * 2) * 0.5 + Math.min(0.4, Math.max(0, cells.regions - 4) * 0.05);
  const score = (0.5 * decisive) / fused.data.length + 0.5 * agreement;
  return Math.max(0, Math.min(1, score * (1 - fragmentation)));
}

/**
 * The matte from the segmenter's coarse map of the whole photo and, when taken, its close-up of the product: the two
 * fused, refined by colour models (GrabCut-style), every significant product region kept and enclosed holes filled
 * on a work grid, then brought to full resolution with edges snapped to the photo's by a guided filter. Undefined
 * when nothing was found.
 */
export function productMatte(image: RgbImage, coarseMap: FloatPlane, closeUp?: CloseUp): ProductMatte | undefined {
  const coarse = removeIslands(coarseMap);
  let area = 0;
  for (const value of coarse.data) if (value > 0.5) area += 1;
  // A product the whole photo's map hardly saw may still be found by the close-up (a white watch on a dark cloth).
  if (!closeUp && area < MIN_PRODUCT_AREA * coarse.data.length) return undefined;
  const region = closeUp?.region ?? productRegion(coarse, image.width, image.height, 0.05);
  if (!region) return undefined;

  const scale = Math.min(1, WORK_SIDE / Math.max(region.width, region.height));
  const gridWidth = Math.max(8, Math.round(region.width * scale));
  const gridHeight = Math.max(8, Math.round(region.height * scale));
  const sx = coarse.width / image.width;
  const sy = coarse.height / image.height;
  const wide = resampleWindow(
    coarse,
    { left: region.left * sx, top: region.top * sy, width: region.width * sx, height: region.height * sy },
    gridWidth,
    gridHeight,
  );
  const close = closeUp && resizeBilinear(closeUp.map, gridWidth, gridHeight);
  const fused = close ? plane(gridWidth, gridHeight) : wide;
  if (close) {
    for (let k = 0; k < fused.data.length; k += 1)
      fused.data[k] = CLOSE_UP_WEIGHT * close.data[k]! + (1 - CLOSE_UP_WEIGHT) * wide.data[k]!;
  }
  const colours = resampleRgbWindow(image.data, image.width, region, gridWidth, gridHeight);
  const belief = colourRefine(colours, fused);
  const cells = productCells(belief, fused, colours);
  let cellCount = 0;
  for (const cell of cells.mask) cellCount += cell;
  if (cellCount / (scale * scale) < MIN_PRODUCT_AREA * image.width * image.height) return undefined;

  const solid = plane(gridWidth, gridHeight);
  for (let k = 0; k < solid.data.length; k += 1) solid.data[k] = cells.mask[k]!;
  const radius = guideRadius(image);
  const refined = tightenMatte(
    colourGuidedFilter(cropRgb(image, region), resizeBilinear(solid, region.width, region.height), radius, 4e-4),
  );
  const alpha = plane(image.width, image.height);
  for (let y = 0; y < region.height; y += 1) {
    alpha.data.set(
      refined.data.subarray(y * region.width, (y + 1) * region.width),
      (region.top + y) * image.width + region.left,
    );
  }
  return { alpha, confidence: matteConfidence(wide, close, fused, cells) };
}

/** Margin around the product's region in which its edges are refined. */
function edgeMargin(image: RgbImage): number {
  return Math.round(Math.max(image.width, image.height) * 0.02) + guideRadius(image) * 2;
}

/** Radius of the edge work (guided filter, margins) for a photo of this size. */
function guideRadius(image: RgbImage): number {
  return Math.max(2, Math.round(Math.max(image.width, image.height) / 320));
}

/** How the cut-out's soft edge is coloured. */
export interface CutoutOptions {
  /**
   * Frees the edge colours of the old background (`estimateForeground`), so no fringe shows on a new scene: what
   * every rendered image needs. Analysis turns it off: its cut-out is only seen by the classifier at 224 px, where
   * the ~2-px edge is under a pixel. Measured on the 43 photos of ../shared/photos: 8 borderline guesses changed
   * (two for the better, two for the worse, four wrong either way), the category and name accuracy stayed (test set
   * 31 and 22 of 36); ~60 ms less per analysis.
   */
  freeEdgeColours?: boolean;
}

/**
 * The cut-out from a matte over the whole photo (the segmenter's, or the seller's corrected one): the product's
 * crop with a margin for the soft edge, edge colours freed of the old background (unless `options` says not to),
 * solid pixels unchanged.
 */
export function cutoutFromMatte(
  image: RgbImage,
  matte: FloatPlane,
  { freeEdgeColours = true }: CutoutOptions = {},
): ProductCutout {
  const found = boundsAbove(matte.data, matte.width, matte.height, 0.5);
  if (!found) return wholePhoto(image);
  const radius = guideRadius(image);
  // Edge colours are estimated over a wider region than is kept, so the old background around the edge is seen.
  const region = expand(found, edgeMargin(image), image.width, image.height);
  const regionAlpha = cropPlane(matte, region);
  const photographed = cropRgb(image, region);
  const rgb = freeEdgeColours ? estimateForeground(photographed, regionAlpha) : photographed;
  const tight = {
    left: found.left - region.left,
    top: found.top - region.top,
    right: found.right - region.left,
    bottom: found.bottom - region.top,
  };
  // Keep a margin for the soft edge, drop the rest: less to upscale and to resize later.
  const keep = expand(tight, Math.max(4, radius * 2), region.width, region.height);
  // Shared memory: the renderer hands the cut-out to the pixel thread again (backdrops, the detail) without a copy.
  const rgba = sharedBuffer(keep.width * keep.height * 4);
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
 * The cut-out of a stored photo by a stored matte (a grayscale PNG), on the pixel thread: the photo decoded with its
 * long side at most `side`, the matte resized to it, then `cutoutFromMatte`. The decoded photo (up to ~50 MB) and the
 * matte's float plane never reach the main thread.
 */
export async function cutoutFromStoredMatte(
  original: Uint8Array,
  mattePng: Uint8Array,
  side: number,
): Promise<ProductCutout> {
  const image = await decodeRgb(asBuffer(original), side);
  return cutoutFromMatte(image, await decodeMattePng(asBuffer(mattePng), image.width, image.height));
}

/**
 * The matte refinement of `cutOutProduct` from the segmenter's coarse map (pixel thread): the cut-out and the matte
 * it was made from (undefined when nothing was found), which analysis stores with the generation.
 */
export function refineCutout(
  image: RgbImage,
  coarseMap: FloatPlane,
  closeUp?: CloseUp,
  options?: CutoutOptions,
): { cutout: ProductCutout; matte: ProductMatte | undefined } {
  const matte = productMatte(image, coarseMap, closeUp);
  return { cutout: matte ? cutoutFromMatte(image, matte.alpha, options) : wholePhoto(image), matte };
}
