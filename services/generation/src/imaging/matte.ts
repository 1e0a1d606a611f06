import { boxBlur, type FloatPlane } from './raster';

/**
 * Drops specks the segmenter found away from the product: connected regions (4-neighbour, above 0.5) smaller
 * than `keepFraction` of the largest are cleared. Pairs of products (two shoes) stay, being of similar size.
 */
export function removeIslands(mask: FloatPlane, keepFraction = 0.08): FloatPlane {
  const { width, height, data } = mask;
  const labels = new Int32Array(width * height).fill(-1);
  const sizes: number[] = [];
  const stack: number[] = [];
  for (let start = 0; start < data.length; start += 1) {
    if (labels[start] !== -1 || data[start]! <= 0.5) continue;
    const label = sizes.length;
    let size = 0;
    stack.push(start);
    labels[start] = label;
    while (stack.length > 0) {
      const index = stack.pop()!;
      size += 1;
      const x = index % width;
      const neighbours = [
        x > 0 ? index - 1 : -1,
        x < width - 1 ? index + 1 : -1,
        index >= width ? index - width : -1,
        index + width < data.length ? index + width : -1,
      ];
      for (const next of neighbours) {
        if (next >= 0 && labels[next] === -1 && data[next]! > 0.5) {
          labels[next] = label;
          stack.push(next);
        }
      }
    }
    sizes.push(size);
  }
  if (sizes.length <= 1) return mask;
  const largest = Math.max(...sizes);
  const out = data.slice();
  // Soft fringe pixels of a dropped region belong to the nearest region; clearing them with the region is enough
  // because the matte curve later removes faint values.
  for (let i = 0; i < out.length; i += 1) {
    const label = labels[i]!;
    if (label >= 0 && sizes[label]! < largest * keepFraction) out[i] = 0;
  }
  return { data: out, width, height };
}

/**
 * Guided filter (He, Sun, Tang): moves the upsampled mask's edges onto the photo's real edges, which keeps thin
 * parts the 320² mask only hinted at and drops the blur of upsampling. `guide` is luminance in [0,1].
 */
export function guidedFilter(guide: FloatPlane, input: FloatPlane, radius: number, epsilon: number): FloatPlane {
  const { width, height } = guide;
  const n = width * height;
  const I = guide.data;
  const p = input.data;
  const ii = new Float32Array(n);
  const ip = new Float32Array(n);
  for (let k = 0; k < n; k += 1) {
    ii[k] = I[k]! * I[k]!;
    ip[k] = I[k]! * p[k]!;
  }
  const meanI = boxBlur(I, width, height, radius);
  const meanP = boxBlur(p, width, height, radius);
  const corrI = boxBlur(ii, width, height, radius);
  const corrIP = boxBlur(ip, width, height, radius);
  const a = new Float32Array(n);
  const b = new Float32Array(n);
  for (let k = 0; k < n; k += 1) {
    const variance = corrI[k]! - meanI[k]! * meanI[k]!;
    const covariance = corrIP[k]! - meanI[k]! * meanP[k]!;
    a[k] = covariance / (variance + epsilon);
    b[k] = meanP[k]! - a[k]! * meanI[k]!;
  }
  const meanA = boxBlur(a, width, height, radius);
  const meanB = boxBlur(b, width, height, radius);
  const out = new Float32Array(n);
  for (let k = 0; k < n; k += 1) out[k] = meanA[k]! * I[k]! + meanB[k]!;
  return { data: out, width, height };
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
  const foreground = [0, 1, 2].map((c) => {
    const channel = new Float32Array(n);
    for (let k = 0; k < n; k += 1) channel[k] = rgb[k * 3 + c]! / 255;
    return channel;
  });
  const image = foreground.map((channel) => channel.slice());
  const background = foreground.map((channel) => channel.slice());
  for (const radius of radii) {
    const weightF = boxBlur(a, width, height, radius);
    const weightB = boxBlur(oneMinus, width, height, radius);
    for (let c = 0; c < 3; c += 1) {
      const F = foreground[c]!;
      const B = background[c]!;
      const I = image[c]!;
      const fa = new Float32Array(n);
      const bb = new Float32Array(n);
      for (let k = 0; k < n; k += 1) {
        fa[k] = F[k]! * a[k]!;
        bb[k] = B[k]! * oneMinus[k]!;
      }
      const blurF = boxBlur(fa, width, height, radius);
      const blurB = boxBlur(bb, width, height, radius);
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
  for (let k = 0; k < n; k += 1) {
    const solid = a[k]! >= 0.999;
    for (let c = 0; c < 3; c += 1) {
      out[k * 3 + c] = solid ? rgb[k * 3 + c]! : Math.round(foreground[c]![k]! * 255);
    }
  }
  return out;
}
