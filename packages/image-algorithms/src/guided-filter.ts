import { boxMean, type BoxEdges } from './box-mean';
import type { FloatPlane } from './plane';
import { resampleRgbWindow, resampleWindow, resizeBilinear } from './resample';

export interface GuidedFilterOptions {
  /** The linear model is fitted on a grid this many times coarser and applied at full resolution (1: full). */
  subsample?: number;
  /** The box windows' border rule (see `BoxEdges`). */
  edges?: BoxEdges;
}

/**
 * The guided filter with the colour photo as guide (He, Sun, Tang, ECCV 2010; with `subsample` > 1 the fast
 * variant): smooths a mask (blurry after upscaling from a model's grid) while making its edges follow the photo's,
 * including edges between two colours of equal brightness (a red product on green grass) that a luminance guide
 * misses. `rgb` is interleaved RGB 0..255 of the input's size.
 */
export function colourGuidedFilter(
  rgb: Uint8Array | Uint8ClampedArray,
  input: FloatPlane,
  radius: number,
  epsilon: number,
  { subsample = 2, edges = 'repeat' }: GuidedFilterOptions = {},
): FloatPlane {
  const { width, height } = input;
  const w = Math.max(1, Math.round(width / subsample));
  const h = Math.max(1, Math.round(height / subsample));
  const window = { left: 0, top: 0, width, height };
  const small = resampleRgbWindow(rgb, width, window, w, h);
  const p = w === width && h === height ? input.data : resampleWindow(input, window, w, h).data;
  const r = Math.max(1, Math.round(radius / subsample));
  const n = w * h;
  const channel = (c: number) => {
    const out = new Float32Array(n);
    for (let k = 0; k < n; k += 1) out[k] = small[k * 3 + c]!;
    return out;
  };
  const I = [channel(0), channel(1), channel(2)];
  const product = (a: Float32Array, b: Float32Array) => {
    const out = new Float32Array(n);
    for (let k = 0; k < n; k += 1) out[k] = a[k]! * b[k]!;
    return out;
  };
  const blur = (values: Float32Array) => boxMean(values, w, h, r, edges);
  const meanI = I.map(blur);
  const meanP = blur(p);
  const meanIp = I.map((channelI) => blur(product(channelI, p)));
  // The guide's covariance: rr, rg, rb, gg, gb, bb.
  const [rr, rg, rb, gg, gb, bb] = (
    [
      [0, 0],
      [0, 1],
      [0, 2],
      [1, 1],
      [1, 2],
      [2, 2],
    ] as const
  ).map(([i, j]) => blur(product(I[i]!, I[j]!))) as [
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
  ];
  const a = [new Float32Array(n), new Float32Array(n), new Float32Array(n)] as const;
  const b = new Float32Array(n);
  for (let k = 0; k < n; k += 1) {
    const m0 = meanI[0]![k]!;
    const m1 = meanI[1]![k]!;
    const m2 = meanI[2]![k]!;
    const mp = meanP[k]!;
    // Σ + εU, symmetric: its inverse by cofactors (this loop runs per cell, so no arrays are made in it).
    const s00 = rr[k]! - m0 * m0 + epsilon;
    const s01 = rg[k]! - m0 * m1;
    const s02 = rb[k]! - m0 * m2;
    const s11 = gg[k]! - m1 * m1 + epsilon;
    const s12 = gb[k]! - m1 * m2;
    const s22 = bb[k]! - m2 * m2 + epsilon;
    const i00 = s11 * s22 - s12 * s12;
    const i01 = s02 * s12 - s01 * s22;
    const i02 = s01 * s12 - s02 * s11;
    const i11 = s00 * s22 - s02 * s02;
    const i12 = s01 * s02 - s00 * s12;
    const i22 = s00 * s11 - s01 * s01;
    const determinant = s00 * i00 + s01 * i01 + s02 * i02;
    const c0 = meanIp[0]![k]! - m0 * mp;
    const c1 = meanIp[1]![k]! - m1 * mp;
    const c2 = meanIp[2]![k]! - m2 * mp;
    const a0 = (i00 * c0 + i01 * c1 + i02 * c2) / determinant;
    const a1 = (i01 * c0 + i11 * c1 + i12 * c2) / determinant;
    const a2 = (i02 * c0 + i12 * c1 + i22 * c2) / determinant;
    a[0][k] = a0;
    a[1][k] = a1;
    a[2][k] = a2;
    b[k] = mp - a0 * m0 - a1 * m1 - a2 * m2;
  }
  const up = (values: Float32Array) => resizeBilinear({ data: blur(values), width: w, height: h }, width, height).data;
  const [a0, a1, a2] = a.map(up) as [Float32Array, Float32Array, Float32Array];
  const meanB = up(b);
  const out = new Float32Array(width * height);
  for (let k = 0; k < out.length; k += 1) {
    out[k] = (a0[k]! * rgb[k * 3]! + a1[k]! * rgb[k * 3 + 1]! + a2[k]! * rgb[k * 3 + 2]!) / 255 + meanB[k]!;
  }
  return { data: out, width, height };
}
