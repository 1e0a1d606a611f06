/*
 * The mild sharpen of the upscaled product, on the pixel thread: libvips' `sharpen` (the one sharp's `.sharpen()`
 * calls) without its round trip of the whole image through 16-bit LAB and libvips' float colour conversions, which
 * cost ~400–600 ms at ~1741² on this machine; this pass costs a fraction of that.
 *
 * As in libvips, the detail is L* minus L* blurred by its integer Gaussian, mapped by a curve (gentle slope `flat`
 * below `threshold`, steeper `jagged` above, at most `brighten` up and `darken` down, all in L* units) and added to
 * L* with a* and b* kept. Keeping a* and b* moves each of f(X), f(Y), f(Z) by the same amount (f the CIELAB cube
 * root), so the change is worked out in XYZ and added to the pixel's own linear RGB: a pixel the curve leaves alone
 * keeps its bytes exactly.
 */

export interface SharpenCurve {
  sigma: number;
  flat: number;
  jagged: number;
  threshold: number;
  brighten: number;
  darken: number;
}

/** Linear light of each sRGB byte. */
const LINEAR = new Float64Array(256).map((_, v) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

/** Table sizes: linear light in steps of 1/STEPS (a step is < 0.06 of a byte, < 0.01 L*). */
const STEPS = 65535;
let tables: { encode: Uint8Array; f: Float64Array } | undefined;

/** sRGB bytes of linear light, and CIELAB's f of a tristimulus value relative to white. */
function lookups(): { encode: Uint8Array; f: Float64Array } {
  tables ??= {
    encode: new Uint8Array(STEPS + 1).map((_, k) => {
      const c = k / STEPS;
      return Math.round(255 * (c <= 0.0031308 ? c * 12.92 : 1.055 * c ** (1 / 2.4) - 0.055));
    }),
    f: new Float64Array(STEPS + 1).map((_, k) => {
      const t = k / STEPS;
      return t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116;
    }),
  };
  return tables;
}

/** CIELAB's f inverted. */
const unF = (f: number) => (f > 6 / 29 ? f * f * f : (f - 4 / 29) * 3 * (6 / 29) ** 2);

/** Linear sRGB to XYZ relative to the D65 white (white = 1, 1, 1), and back. */
const XYZ = [
  [0.4124 / 0.95047, 0.3576 / 0.95047, 0.1805 / 0.95047],
  [0.2126, 0.7152, 0.0722],
  [0.0193 / 1.08883, 0.1192 / 1.08883, 0.9505 / 1.08883],
] as const;
const RGB = [
  [3.2406 * 0.95047, -1.5372, -0.4986 * 1.08883],
  [-0.9689 * 0.95047, 1.8758, 0.0415 * 1.08883],
  [0.0557 * 0.95047, -0.204, 1.057 * 1.08883],
] as const;

/**
 * libvips' `vips_gaussmat(sigma, 0.2, integer)` for the sigmas this pass takes: taps down to 20% of the centre,
 * scaled by 20 and rounded, which for sigma 0.62–1.05 is three taps, [side, centre, side] normalised.
 */
function gaussianTaps(sigma: number): { centre: number; side: number } {
  const side = Math.round(20 * Math.exp(-1 / (2 * sigma * sigma)));
  if (side < 4 || Math.exp(-4 / (2 * sigma * sigma)) >= 0.2)
    throw new Error(`sharpen: sigma ${sigma} is not a 3-tap blur`);
  return { centre: 20 / (20 + 2 * side), side: side / (20 + 2 * side) };
}

/** Two working planes of L*, kept between calls (one product after another on the pixel thread, no garbage). */
let scratch: Float32Array | undefined;
function planes(pixels: number): [Float32Array, Float32Array] {
  if (!scratch || scratch.length < 2 * pixels) scratch = new Float32Array(2 * pixels);
  return [scratch.subarray(0, pixels), scratch.subarray(pixels, 2 * pixels)];
}

/** Linear light (0..1) to its sRGB byte, clamped. */
function toByte(encode: Uint8Array, linear: number): number {
  return linear <= 0 ? encode[0]! : linear >= 1 ? encode[STEPS]! : encode[(linear * STEPS + 0.5) | 0]!;
}

/** Sharpens straight RGB by `curve` and interleaves `alpha`: straight RGBA in shared memory (pixel thread). */
export function sharpenRgba(
  rgb: Uint8Array,
  alpha: Uint8Array,
  width: number,
  height: number,
  curve: SharpenCurve,
): Uint8Array {
  const { encode, f } = lookups();
  const [[xr, xg, xb], [yr, yg, yb], [zr, zg, zb]] = XYZ;
  const [[rx, ry, rz], [gx, gy, gz], [bx, by, bz]] = RGB;
  const pixels = width * height;
  const [light, across] = planes(pixels);
  for (let k = 0, i = 0; k < pixels; k += 1, i += 3) {
    const y = yr * LINEAR[rgb[i]!]! + yg * LINEAR[rgb[i + 1]!]! + yb * LINEAR[rgb[i + 2]!]!;
    light[k] = 116 * f[(Math.min(1, y) * STEPS + 0.5) | 0]! - 16;
  }
  // The blur along rows here, down columns in the pass below; edges repeated, as libvips' convolution does.
  const { centre, side } = gaussianTaps(curve.sigma);
  for (let row = 0; row < pixels; row += width) {
    const last = row + width - 1;
    for (let k = row; k <= last; k += 1) {
      across[k] = centre * light[k]! + side * (light[k > row ? k - 1 : k]! + light[k < last ? k + 1 : k]!);
    }
  }
  const { flat, jagged, threshold, brighten, darken } = curve;
  // Shared memory: every image of the product reads it on the pixel thread without a copy.
  const out = new Uint8Array(new SharedArrayBuffer(pixels * 4));
  for (let k = 0, i = 0, o = 0; k < pixels; k += 1, i += 3, o += 4) {
    out[o + 3] = alpha[k]!;
    const l = light[k]!;
    const above = k >= width ? k - width : k;
    const below = k < pixels - width ? k + width : k;
    const detail = l - (centre * across[k]! + side * (across[above]! + across[below]!));
    let change =
      detail < -threshold
        ? (detail + threshold) * jagged - threshold * flat
        : detail < threshold
          ? detail * flat
          : (detail - threshold) * jagged + threshold * flat;
    change = change < -darken ? -darken : change > brighten ? brighten : change;
    // L* stays within 0..100.
    const sharpened = l + change < 0 ? 0 : l + change > 100 ? 100 : l + change;
    if (Math.abs(sharpened - l) < 0.005) {
      out[o] = rgb[i]!;
      out[o + 1] = rgb[i + 1]!;
      out[o + 2] = rgb[i + 2]!;
      continue;
    }
    const r = LINEAR[rgb[i]!]!;
    const g = LINEAR[rgb[i + 1]!]!;
    const b = LINEAR[rgb[i + 2]!]!;
    const shift = (sharpened - l) / 116;
    const fx = f[(Math.min(1, xr * r + xg * g + xb * b) * STEPS + 0.5) | 0]!;
    const fy = (l + 16) / 116;
    const fz = f[(Math.min(1, zr * r + zg * g + zb * b) * STEPS + 0.5) | 0]!;
    const dx = unF(fx + shift) - unF(fx);
    const dy = unF(fy + shift) - unF(fy);
    const dz = unF(fz + shift) - unF(fz);
    out[o] = toByte(encode, r + rx * dx + ry * dy + rz * dz);
    out[o + 1] = toByte(encode, g + gx * dx + gy * dy + gz * dz);
    out[o + 2] = toByte(encode, b + bx * dx + by * dy + bz * dz);
  }
  return out;
}
