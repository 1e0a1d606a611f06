import { boxMean, labelRegions, type BinaryMask, type FloatPlane } from '@productgen/image-algorithms';

// The algorithms the browser tools use too (guided filter, regions, box mean) are in @productgen/image-algorithms.

/** Cells above a threshold as a binary mask. */
export function maskAbove(values: ArrayLike<number>, threshold: number): BinaryMask {
  const mask = new Uint8Array(values.length);
  for (let k = 0; k < mask.length; k += 1) if (values[k]! > threshold) mask[k] = 1;
  return mask;
}

/**
 * Drops specks the segmenter found away from the product: connected regions (4-neighbour, above 0.5) smaller
 * than `keepFraction` of the largest are cleared. Pairs of products (two shoes) stay, being of similar size.
 */
export function removeIslands(mask: FloatPlane, keepFraction = 0.08): FloatPlane {
  const { labels, sizes } = labelRegions(maskAbove(mask.data, 0.5), mask.width);
  if (sizes.length <= 1) return mask;
  const largest = Math.max(...sizes);
  const out = mask.data.slice();
  // Soft fringe pixels of a dropped region belong to the nearest region; clearing them with the region is enough
  // because the matte curve later removes faint values.
  for (let i = 0; i < out.length; i += 1) {
    const label = labels[i]!;
    if (label >= 0 && sizes[label]! < largest * keepFraction) out[i] = 0;
  }
  return { data: out, width: mask.width, height: mask.height };
}

/** Pushes faint haze to 0 and near-solid values to 1, keeping the soft ramp in between. */
export function tightenMatte(alpha: FloatPlane, low = 0.12, high = 0.88): FloatPlane {
  const out = new Float32Array(alpha.data.length);
  const span = high - low;
  for (let k = 0; k < out.length; k += 1) {
    const t = (alpha.data[k]! - low) / span;
    out[k] = t <= 0 ? 0 : t >= 1 ? 1 : t * t * (3 - 2 * t);
  }
  return { data: out, width: alpha.width, height: alpha.height };
}

/**
 * Foreground colours for the soft edge (blur-fusion estimator, Forte & Pitié / Germer et al.): a pixel that is
 * part product, part old background gets the product's colour, so no fringe of the old background shows on the
 * new scene. Fully opaque pixels are returned exactly as they were: the product itself is never repainted.
 * `rgb` is interleaved RGB 0..255; the answer is too.
 */
export function estimateForeground(rgb: Uint8Array, alpha: FloatPlane, radii: readonly number[] = [24, 4]): Uint8Array {
  const { width, height } = alpha;
  const n = width * height;
  const a = alpha.data;
  const oneMinus = new Float32Array(n);
  for (let k = 0; k < n; k += 1) oneMinus[k] = 1 - a[k]!;
  const image = [0, 1, 2].map((c) => {
    const channel = new Float32Array(n);
    for (let k = 0; k < n; k += 1) channel[k] = rgb[k * 3 + c]! / 255;
    return channel;
  });
  const foreground = image.map((channel) => channel.slice());
  const background = image.map((channel) => channel.slice());
  // These planes of the region's size serve every pass (a 2000² region is 16 MB a plane) instead of fresh ones per
  // pass and channel: less memory asked for, the same answer. No speed-up showed in a warm micro-benchmark.
  const plane = () => new Float32Array(n);
  const weightF = plane();
  const weightB = plane();
  const fa = plane();
  const bb = plane();
  const blurF = plane();
  const blurB = plane();
  const scratch = plane();
  for (const radius of radii) {
    boxMean(a, width, height, radius, 'repeat', weightF, scratch);
    boxMean(oneMinus, width, height, radius, 'repeat', weightB, scratch);
    for (let c = 0; c < 3; c += 1) {
      const F = foreground[c]!;
      const B = background[c]!;
      const I = image[c]!;
      for (let k = 0; k < n; k += 1) {
        fa[k] = F[k]! * a[k]!;
        bb[k] = B[k]! * oneMinus[k]!;
      }
      boxMean(fa, width, height, radius, 'repeat', blurF, scratch);
      boxMean(bb, width, height, radius, 'repeat', blurB, scratch);
      for (let k = 0; k < n; k += 1) {
        const f = weightF[k]! > 1e-5 ? blurF[k]! / weightF[k]! : I[k]!;
        const b = weightB[k]! > 1e-5 ? blurB[k]! / weightB[k]! : I[k]!;
        const alphaK = a[k]!;
        const residual = I[k]! - alphaK * f - (1 - alphaK) * b;
        F[k] = Math.min(1, Math.max(0, f + alphaK * residual));
        B[k] = Math.min(1, Math.max(0, b + (1 - alphaK) * residual));
      }
    }
  }
  const out = new Uint8Array(n * 3);
  for (let c = 0; c < 3; c += 1) {
    const F = foreground[c]!;
    for (let k = 0; k < n; k += 1) out[k * 3 + c] = a[k]! >= 0.999 ? rgb[k * 3 + c]! : Math.round(F[k]! * 255);
  }
  return out;
}

/** One Gaussian of a colour mixture: weight, mean and the inverse and log-determinant of its covariance. */
interface ColourGaussian {
  weight: number;
  mean: [number, number, number];
  inverse: number[];
  logDeterminant: number;
}

/** A Gaussian mixture over RGB colours (0..1), as GrabCut models the product's and the background's colours. */
export interface ColourModel {
  gaussians: ColourGaussian[];
}

/** Smallest variance a colour cluster is given, so a flat region (a white backdrop) does not make a spike. */
const COLOUR_VARIANCE_FLOOR = 2e-4;

function invert3(m: number[]): { inverse: number[]; determinant: number } {
  const [a, b, c, d, e, f, g, h, i] = m as [number, number, number, number, number, number, number, number, number];
  const A = e * i - f * h;
  const B = -(d * i - f * g);
  const C = d * h - e * g;
  const determinant = a * A + b * B + c * C;
  const s = 1 / determinant;
  return {
    determinant,
    inverse: [
      A * s,
      -(b * i - c * h) * s,
      (b * f - c * e) * s,
      B * s,
      (a * i - c * g) * s,
      -(a * f - c * d) * s,
      C * s,
      -(a * h - b * g) * s,
      (a * e - b * d) * s,
    ],
  };
}

/**
 * Fits a mixture of `count` Gaussians to colours (interleaved RGB, 0..1) by a few rounds of EM, started from the
 * colours sorted by brightness and cut into equal groups: deterministic, so the same photo gives the same matte.
 */
export function fitColourModel(colours: Float32Array, count = 5, rounds = 5): ColourModel {
  const n = colours.length / 3;
  // Brightness computed once per colour, not twice per comparison (the sort is stable: ties keep their order).
  const brightness = new Float64Array(n);
  for (let k = 0; k < n; k += 1) brightness[k] = colours[k * 3]! + colours[k * 3 + 1]! + colours[k * 3 + 2]!;
  const order = Array.from({ length: n }, (_, k) => k).sort((p, q) => brightness[p]! - brightness[q]!);
  let groups = Math.max(1, Math.min(count, Math.floor(n / 8)));
  // Responsibilities start hard: each colour belongs to its brightness group.
  let responsibility = new Float32Array(n * groups);
  order.forEach((index, rank) => {
    responsibility[index * groups + Math.min(groups - 1, Math.floor((rank * groups) / n))] = 1;
  });
  let model: ColourModel = { gaussians: [] };
  for (let round = 0; round < rounds; round += 1) {
    model = { gaussians: [] };
    for (let g = 0; g < groups; g += 1) {
      let total = 0;
      let sumR = 0;
      let sumG = 0;
      let sumB = 0;
      for (let k = 0; k < n; k += 1) {
        const r = responsibility[k * groups + g]!;
        total += r;
        sumR += r * colours[k * 3]!;
        sumG += r * colours[k * 3 + 1]!;
        sumB += r * colours[k * 3 + 2]!;
      }
      if (total < 1e-6) continue;
      const mean: [number, number, number] = [sumR / total, sumG / total, sumB / total];
      const covariance = new Array<number>(9).fill(0);
      for (let k = 0; k < n; k += 1) {
        const r = responsibility[k * groups + g]!;
        if (r === 0) continue;
        for (let i = 0; i < 3; i += 1) {
          const di = colours[k * 3 + i]! - mean[i]!;
          for (let j = 0; j < 3; j += 1) covariance[i * 3 + j]! += (r * di * (colours[k * 3 + j]! - mean[j]!)) / total;
        }
      }
      for (let i = 0; i < 3; i += 1) covariance[i * 4]! += COLOUR_VARIANCE_FLOOR;
      const { inverse, determinant } = invert3(covariance);
      model.gaussians.push({
        weight: total / n,
        mean,
        inverse,
        logDeterminant: Math.log(Math.max(determinant, 1e-30)),
      });
    }
    if (round === rounds - 1) break;
    const { gaussians } = model;
    const next = new Float32Array(n * gaussians.length);
    for (let k = 0; k < n; k += 1) {
      let sum = 0;
      for (let g = 0; g < gaussians.length; g += 1) {
        const p = gaussianDensity(gaussians[g]!, colours[k * 3]!, colours[k * 3 + 1]!, colours[k * 3 + 2]!);
        next[k * gaussians.length + g] = p;
        sum += p;
      }
      for (let g = 0; g < gaussians.length; g += 1) next[k * gaussians.length + g]! /= sum || 1;
    }
    responsibility = next;
    groups = model.gaussians.length;
  }
  return model;
}

function gaussianDensity(gaussian: ColourGaussian, r: number, g: number, b: number): number {
  const d0 = r - gaussian.mean[0];
  const d1 = g - gaussian.mean[1];
  const d2 = b - gaussian.mean[2];
  const m = gaussian.inverse;
  const distance =
    d0 * (m[0]! * d0 + m[1]! * d1 + m[2]! * d2) +
    d1 * (m[3]! * d0 + m[4]! * d1 + m[5]! * d2) +
    d2 * (m[6]! * d0 + m[7]! * d1 + m[8]! * d2);
  return gaussian.weight * Math.exp(-0.5 * distance - 0.5 * gaussian.logDeterminant);
}

/** The density of colours spread evenly over the RGB cube, in the units of `colourLikelihood`. */
export const EVEN_COLOUR_DENSITY = (2 * Math.PI) ** 1.5;

/** The mixture's density of one colour (0..1 RGB), up to the shared (2π)^-3/2. */
export function colourLikelihood(model: ColourModel, r: number, g: number, b: number): number {
  let sum = 0;
  for (const gaussian of model.gaussians) sum += gaussianDensity(gaussian, r, g, b);
  return sum;
}
