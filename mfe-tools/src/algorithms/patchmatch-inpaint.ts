import { boxMean, dilate, seededRandom } from '@productgen/image-algorithms';

/**
 * Object removal by exemplar-based synthesis: Wexler, Shechtman and Irani's "Space-time completion" EM (every
 * hole pixel becomes the weighted vote of the patches that cover it, each copied from its most similar patch
 * outside the hole), with Barnes et al.'s PatchMatch finding those similar patches (random init, propagation,
 * random search), coarse to fine over an image pyramid. It copies real texture from the surrounding picture, where
 * diffusion methods (Telea, Navier-Stokes) smear colour across an object-sized hole.
 */
export interface InpaintOptions {
  /** Patches are (2r+1)² pixels. */
  patchRadius?: number;
  /** The painted mask grows by this many pixels, so the object's anti-aliased outline goes too. */
  dilation?: number;
  /** Width of the band where the fill blends into the original picture. */
  featherRadius?: number;
  seed?: number;
}

interface Level {
  width: number;
  height: number;
  /** RGB, 0…255. */
  pixels: Float32Array;
  hole: Uint8Array;
}

interface Field {
  /** Per target patch centre: index of the source patch centre; -1 where the pixel is no target. */
  source: Int32Array;
  distance: Float32Array;
  targets: Int32Array;
  validSources: Int32Array;
  isValidSource: Uint8Array;
}

const CHANNELS = 3;

/** Fills the painted mask (1 = remove) of an RGBA image; returns a new RGBA image of the same size. */
export function inpaint(
  rgba: Uint8ClampedArray,
  width: number,
  height: number,
  mask: Uint8Array,
  options: InpaintOptions = {},
): Uint8ClampedArray {
  const radius = options.patchRadius ?? 3;
  const grown = dilate(mask, width, height, options.dilation ?? 3);
  const box = boundingBox(grown, width, height);
  const result = new Uint8ClampedArray(rgba);
  if (!box) return result;

  // Only the hole's neighbourhood takes part: the fill looks for texture near the object, and time depends on
  // the hole, not on the photo.
  const margin = Math.max(8 * radius, Math.round(0.6 * Math.max(box.width, box.height)));
  const crop = {
    x: Math.max(0, box.x - margin),
    y: Math.max(0, box.y - margin),
    right: Math.min(width, box.x + box.width + margin),
    bottom: Math.min(height, box.y + box.height + margin),
  };
  const cropWidth = crop.right - crop.x;
  const cropHeight = crop.bottom - crop.y;
  const finest: Level = {
    width: cropWidth,
    height: cropHeight,
    pixels: new Float32Array(cropWidth * cropHeight * 3),
    hole: new Uint8Array(cropWidth * cropHeight),
  };
  for (let y = 0; y < cropHeight; y += 1) {
    for (let x = 0; x < cropWidth; x += 1) {
      const from = (crop.y + y) * width + crop.x + x;
      const to = y * cropWidth + x;
      finest.hole[to] = grown[from];
      for (let c = 0; c < CHANNELS; c += 1) finest.pixels[to * CHANNELS + c] = rgba[from * 4 + c];
    }
  }

  const random = seededRandom(options.seed ?? 1);
  const pyramid = buildPyramid(finest, box, radius);
  let coarsest = pyramid[pyramid.length - 1];
  diffuseIntoHole(coarsest);
  let field = randomField(coarsest, radius, random);
  for (let index = pyramid.length - 1; index >= 0; index -= 1) {
    const level = pyramid[index];
    if (level !== coarsest) {
      fillHoleFromCoarser(level, coarsest);
      field = upsampleField(field, coarsest, level, radius, random);
      coarsest = level;
    }
    const iterations = index === 0 ? 2 : 4;
    computeDistances(level, field, radius);
    for (let iteration = 0; iteration < iterations; iteration += 1) {
      searchNearestPatches(level, field, radius, random, iteration % 2 === 0);
      searchNearestPatches(level, field, radius, random, iteration % 2 !== 0);
      vote(level, field, radius);
      computeDistances(level, field, radius);
    }
  }

  blendInto(result, width, finest, crop, mask, grown, options.featherRadius ?? options.dilation ?? 3);
  return result;
}

function boundingBox(mask: Uint8Array, width: number, height: number) {
  let minX = width;
  let minY = height;
  let maxX = -1;
  let maxY = -1;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      if (!mask[y * width + x]) continue;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  return maxX < 0 ? undefined : { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
}

/** Halves the crop until the hole is a few patches across (where the structure is decided) or sources run out. */
function buildPyramid(finest: Level, box: { width: number; height: number }, radius: number): Level[] {
  const patch = 2 * radius + 1;
  const levels = [finest];
  let holeSize = Math.max(box.width, box.height);
  for (;;) {
    const current = levels[levels.length - 1];
    if (holeSize <= 2 * patch || Math.min(current.width, current.height) < 8 * patch) break;
    const next = downsample(current);
    if (countValidSources(next, radius) < 4 * patch * patch) break;
    levels.push(next);
    holeSize /= 2;
  }
  return levels;
}

function downsample(level: Level): Level {
  const width = Math.floor(level.width / 2);
  const height = Math.floor(level.height / 2);
  const pixels = new Float32Array(width * height * CHANNELS);
  const hole = new Uint8Array(width * height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const to = y * width + x;
      let known = 0;
      const sums = [0, 0, 0];
      for (let dy = 0; dy < 2; dy += 1) {
        for (let dx = 0; dx < 2; dx += 1) {
          const from = (2 * y + dy) * level.width + 2 * x + dx;
          if (level.hole[from]) {
            hole[to] = 1;
            continue;
          }
          known += 1;
          for (let c = 0; c < CHANNELS; c += 1) sums[c] += level.pixels[from * CHANNELS + c];
        }
      }
      if (known > 0) for (let c = 0; c < CHANNELS; c += 1) pixels[to * CHANNELS + c] = sums[c] / known;
    }
  }
  return { width, height, pixels, hole };
}

/** Patch centres whose whole patch lies inside the level and outside the hole. */
function sourceMask(level: Level, radius: number): Uint8Array {
  const blocked = dilate(level.hole, level.width, level.height, radius);
  const valid = new Uint8Array(level.width * level.height);
  for (let y = radius; y < level.height - radius; y += 1) {
    for (let x = radius; x < level.width - radius; x += 1) {
      const index = y * level.width + x;
      if (!blocked[index]) valid[index] = 1;
    }
  }
  return valid;
}

function countValidSources(level: Level, radius: number): number {
  return sourceMask(level, radius).reduce((sum, value) => sum + value, 0);
}

/** The coarsest start: each hole pixel takes the mean of its known neighbours, ring by ring from the edge inwards. */
function diffuseIntoHole(level: Level): void {
  const { width, height, pixels } = level;
  const unknown = new Uint8Array(level.hole);
  let remaining = unknown.reduce((sum, value) => sum + value, 0);
  while (remaining > 0) {
    const ring: number[] = [];
    for (let index = 0; index < unknown.length; index += 1) {
      if (!unknown[index]) continue;
      const x = index % width;
      const y = (index - x) / width;
      const sums = [0, 0, 0];
      let known = 0;
      for (const [dx, dy] of [
        [1, 0],
        [-1, 0],
        [0, 1],
        [0, -1],
      ] as const) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
        const neighbour = ny * width + nx;
        if (unknown[neighbour]) continue;
        known += 1;
        for (let c = 0; c < CHANNELS; c += 1) sums[c] += pixels[neighbour * CHANNELS + c];
      }
      if (known === 0) continue;
      for (let c = 0; c < CHANNELS; c += 1) pixels[index * CHANNELS + c] = sums[c] / known;
      ring.push(index);
    }
    if (ring.length === 0) break;
    for (const index of ring) unknown[index] = 0;
    remaining -= ring.length;
  }
}

/** Target patch centres: every valid centre whose patch touches the hole. */
function targetsOf(level: Level, radius: number): Int32Array {
  const touching = dilate(level.hole, level.width, level.height, radius);
  const targets: number[] = [];
  for (let y = radius; y < level.height - radius; y += 1) {
    for (let x = radius; x < level.width - radius; x += 1) {
      if (touching[y * level.width + x]) targets.push(y * level.width + x);
    }
  }
  return Int32Array.from(targets);
}

function emptyField(level: Level, radius: number): Field {
  const isValidSource = sourceMask(level, radius);
  const validSources: number[] = [];
  for (let index = 0; index < isValidSource.length; index += 1) if (isValidSource[index]) validSources.push(index);
  const size = level.width * level.height;
  return {
    source: new Int32Array(size).fill(-1),
    distance: new Float32Array(size).fill(Infinity),
    targets: targetsOf(level, radius),
    validSources: Int32Array.from(validSources),
    isValidSource,
  };
}

function randomSource(field: Field, random: () => number): number {
  return field.validSources[Math.floor(random() * field.validSources.length)];
}

function randomField(level: Level, radius: number, random: () => number): Field {
  const field = emptyField(level, radius);
  for (const target of field.targets) field.source[target] = randomSource(field, random);
  return field;
}

/** The next finer level starts from the coarser fill (each coarse pixel covers 2×2) in its hole. */
function fillHoleFromCoarser(level: Level, coarser: Level): void {
  for (let y = 0; y < level.height; y += 1) {
    const cy = Math.min(coarser.height - 1, y >> 1);
    for (let x = 0; x < level.width; x += 1) {
      const index = y * level.width + x;
      if (!level.hole[index]) continue;
      const from = cy * coarser.width + Math.min(coarser.width - 1, x >> 1);
      for (let c = 0; c < CHANNELS; c += 1) level.pixels[index * CHANNELS + c] = coarser.pixels[from * CHANNELS + c];
    }
  }
}

/** Each finer target inherits its coarse parent's match, scaled by two (a random valid one if that is blocked). */
function upsampleField(coarseField: Field, coarser: Level, level: Level, radius: number, random: () => number): Field {
  const field = emptyField(level, radius);
  for (const target of field.targets) {
    const x = target % level.width;
    const y = (target - x) / level.width;
    const parent = Math.min(coarser.height - 1, y >> 1) * coarser.width + Math.min(coarser.width - 1, x >> 1);
    const parentSource = coarseField.source[parent];
    let candidate = -1;
    if (parentSource >= 0) {
      const sx = Math.min(level.width - 1 - radius, 2 * (parentSource % coarser.width) + (x & 1));
      const sy = Math.min(level.height - 1 - radius, 2 * Math.floor(parentSource / coarser.width) + (y & 1));
      candidate = sy * level.width + sx;
    }
    field.source[target] = candidate >= 0 && field.isValidSource[candidate] ? candidate : randomSource(field, random);
  }
  return field;
}

/** Sum of squared RGB differences between two patches; stops early once past `cutoff`. */
function patchDistance(level: Level, target: number, source: number, radius: number, cutoff: number): number {
  const { width, pixels } = level;
  const span = (2 * radius + 1) * CHANNELS;
  let sum = 0;
  for (let dy = -radius; dy <= radius; dy += 1) {
    let t = (target + dy * width - radius) * CHANNELS;
    let s = (source + dy * width - radius) * CHANNELS;
    for (let k = 0; k < span; k += 1, t += 1, s += 1) {
      const difference = pixels[t] - pixels[s];
      sum += difference * difference;
    }
    if (sum > cutoff) return sum;
  }
  return sum;
}

function computeDistances(level: Level, field: Field, radius: number): void {
  for (const target of field.targets) {
    field.distance[target] = patchDistance(level, target, field.source[target], radius, Infinity);
  }
}

function tryCandidate(level: Level, field: Field, target: number, candidate: number, radius: number): void {
  if (candidate < 0 || candidate >= field.isValidSource.length || !field.isValidSource[candidate]) return;
  if (candidate === field.source[target]) return;
  const distance = patchDistance(level, target, candidate, radius, field.distance[target]);
  if (distance < field.distance[target]) {
    field.distance[target] = distance;
    field.source[target] = candidate;
  }
}

/** One PatchMatch pass: propagation from the already visited neighbours, then a shrinking random search. */
function searchNearestPatches(
  level: Level,
  field: Field,
  radius: number,
  random: () => number,
  forward: boolean,
): void {
  const { width, height } = level;
  const step = forward ? 1 : -1;
  const count = field.targets.length;
  for (let n = 0; n < count; n += 1) {
    const target = field.targets[forward ? n : count - 1 - n];
    const x = target % width;
    const y = (target - x) / width;
    // A neighbour's match shifted by one is a good guess: coherent regions spread through the field.
    const left = target - step;
    if (x - step >= 0 && x - step < width && field.source[left] >= 0) {
      tryCandidate(level, field, target, field.source[left] + step, radius);
    }
    const above = target - step * width;
    if (y - step >= 0 && y - step < height && field.source[above] >= 0) {
      tryCandidate(level, field, target, field.source[above] + step * width, radius);
    }
    let searchRadius = Math.max(width, height);
    while (searchRadius >= 1) {
      const best = field.source[target];
      const bx = best % width;
      const by = (best - bx) / width;
      const cx = Math.round(bx + (2 * random() - 1) * searchRadius);
      const cy = Math.round(by + (2 * random() - 1) * searchRadius);
      if (cx >= radius && cy >= radius && cx < width - radius && cy < height - radius) {
        tryCandidate(level, field, target, cy * width + cx, radius);
      }
      searchRadius >>= 1;
    }
  }
}

/** The EM step: every hole pixel becomes the similarity-weighted mean of what the covering patches propose. */
function vote(level: Level, field: Field, radius: number): void {
  const { width, pixels, hole } = level;
  const sums = new Float32Array(pixels.length);
  const weights = new Float32Array(hole.length);
  // Wexler's weights: exp(-d / 2σ²), σ² the 75th percentile of the current distances.
  const distances = Array.from(field.targets, (target) => field.distance[target]).sort((a, b) => a - b);
  const sigma2 = Math.max(1, distances[Math.floor(distances.length * 0.75)] ?? 1);
  for (const target of field.targets) {
    const source = field.source[target];
    const weight = Math.exp(-field.distance[target] / (2 * sigma2)) + 1e-6;
    for (let dy = -radius; dy <= radius; dy += 1) {
      for (let dx = -radius; dx <= radius; dx += 1) {
        const pixel = target + dy * width + dx;
        if (!hole[pixel]) continue;
        const from = (source + dy * width + dx) * CHANNELS;
        weights[pixel] += weight;
        sums[pixel * CHANNELS] += weight * pixels[from];
        sums[pixel * CHANNELS + 1] += weight * pixels[from + 1];
        sums[pixel * CHANNELS + 2] += weight * pixels[from + 2];
      }
    }
  }
  for (let pixel = 0; pixel < hole.length; pixel += 1) {
    if (!hole[pixel] || weights[pixel] === 0) continue;
    for (let c = 0; c < CHANNELS; c += 1) pixels[pixel * CHANNELS + c] = sums[pixel * CHANNELS + c] / weights[pixel];
  }
}

/**
 * Writes the fill back: fully inside the painted mask, blended over the grown band so the seam does not show.
 */
function blendInto(
  result: Uint8ClampedArray,
  width: number,
  filled: Level,
  crop: { x: number; y: number },
  painted: Uint8Array,
  grown: Uint8Array,
  featherRadius: number,
): void {
  const grownCrop = new Float32Array(filled.width * filled.height);
  for (let y = 0; y < filled.height; y += 1) {
    for (let x = 0; x < filled.width; x += 1)
      grownCrop[y * filled.width + x] = grown[(crop.y + y) * width + crop.x + x];
  }
  const soft = boxMean(grownCrop, filled.width, filled.height, featherRadius, 'shrink');
  for (let y = 0; y < filled.height; y += 1) {
    for (let x = 0; x < filled.width; x += 1) {
      const local = y * filled.width + x;
      if (!filled.hole[local]) continue;
      const global = (crop.y + y) * width + crop.x + x;
      // The grown band's edge has soft ≈ 0.5: the fill fades from 1 inside to 0 there.
      const alpha = painted[global] ? 1 : Math.min(1, Math.max(0, 2 * soft[local] - 1));
      for (let c = 0; c < CHANNELS; c += 1) {
        result[global * 4 + c] = alpha * filled.pixels[local * CHANNELS + c] + (1 - alpha) * result[global * 4 + c];
      }
    }
  }
}
