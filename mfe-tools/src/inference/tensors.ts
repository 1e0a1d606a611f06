/**
 * Conversions between RGBA pixels and the planar float tensors the models take and give (NCHW, RGB).
 */
export interface RgbaImage {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

/**
 * Resamples an RGBA image to `width`×`height` RGB planes (area average when shrinking, bilinear when growing),
 * as x/255 then (x − mean)/std per channel.
 */
export function rgbaToPlanar(
  image: RgbaImage,
  width: number,
  height: number,
  mean: readonly number[] = [0, 0, 0],
  std: readonly number[] = [1, 1, 1],
): Float32Array {
  const planes = new Float32Array(3 * width * height);
  const scaleX = image.width / width;
  const scaleY = image.height / height;
  const plane = width * height;
  for (let y = 0; y < height; y += 1) {
    const top = y * scaleY;
    const bottom = Math.max(top + 1e-6, (y + 1) * scaleY);
    for (let x = 0; x < width; x += 1) {
      const left = x * scaleX;
      const right = Math.max(left + 1e-6, (x + 1) * scaleX);
      const sums = [0, 0, 0];
      let total = 0;
      // Every source pixel the target pixel's footprint overlaps, weighted by the overlap.
      for (let sy = Math.floor(top); sy < Math.min(image.height, Math.ceil(bottom)); sy += 1) {
        const wy = Math.min(bottom, sy + 1) - Math.max(top, sy);
        for (let sx = Math.floor(left); sx < Math.min(image.width, Math.ceil(right)); sx += 1) {
          const weight = wy * (Math.min(right, sx + 1) - Math.max(left, sx));
          const i = 4 * (sy * image.width + sx);
          sums[0] += weight * image.data[i];
          sums[1] += weight * image.data[i + 1];
          sums[2] += weight * image.data[i + 2];
          total += weight;
        }
      }
      const index = y * width + x;
      for (let c = 0; c < 3; c += 1) planes[c * plane + index] = (sums[c] / total / 255 - mean[c]) / std[c];
    }
  }
  return planes;
}

/** RGB planes in [0,1] (clamped) → opaque RGBA pixels. */
export function planarToRgba(planes: Float32Array, width: number, height: number): Uint8ClampedArray {
  const plane = width * height;
  const rgba = new Uint8ClampedArray(plane * 4);
  for (let i = 0; i < plane; i += 1) {
    rgba[4 * i] = Math.round(planes[i] * 255);
    rgba[4 * i + 1] = Math.round(planes[plane + i] * 255);
    rgba[4 * i + 2] = Math.round(planes[2 * plane + i] * 255);
    rgba[4 * i + 3] = 255;
  }
  return rgba;
}

/** The pixels of a rectangle of an RGBA image. */
export function cropRgba(image: RgbaImage, x: number, y: number, width: number, height: number): RgbaImage {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let row = 0; row < height; row += 1) {
    const from = ((y + row) * image.width + x) * 4;
    data.set(image.data.subarray(from, from + width * 4), row * width * 4);
  }
  return { data, width, height };
}
