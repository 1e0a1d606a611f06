/*
 * Small float-raster helpers for the matte (run on the pixel thread; the shadows are blurred by libvips).
 * Everything is single-channel Float32Array in row-major order; box blurs use running sums, so their cost does not
 * depend on the radius.
 */

export interface FloatPlane {
  data: Float32Array;
  width: number;
  height: number;
}

export function plane(width: number, height: number, fill = 0): FloatPlane {
  const data = new Float32Array(width * height);
  if (fill !== 0) data.fill(fill);
  return { data, width, height };
}

/** Mean over a (2r+1)² window, edges clamped. */
export function boxBlur(source: Float32Array, width: number, height: number, radius: number): Float32Array {
  const r = Math.max(0, Math.round(radius));
  if (r === 0) return source.slice();
  const temp = new Float32Array(source.length);
  const out = new Float32Array(source.length);
  const window = 2 * r + 1;
  for (let y = 0; y < height; y += 1) {
    const row = y * width;
    let sum = 0;
    for (let k = -r; k <= r; k += 1) sum += source[row + Math.min(width - 1, Math.max(0, k))]!;
    for (let x = 0; x < width; x += 1) {
      temp[row + x] = sum / window;
      const add = Math.min(width - 1, x + r + 1);
      const remove = Math.max(0, x - r);
      sum += source[row + add]! - source[row + remove]!;
    }
  }
  for (let x = 0; x < width; x += 1) {
    let sum = 0;
    for (let k = -r; k <= r; k += 1) sum += temp[Math.min(height - 1, Math.max(0, k)) * width + x]!;
    for (let y = 0; y < height; y += 1) {
      out[y * width + x] = sum / window;
      const add = Math.min(height - 1, y + r + 1);
      const remove = Math.max(0, y - r);
      sum += temp[add * width + x]! - temp[remove * width + x]!;
    }
  }
  return out;
}

export function resizeBilinear(source: FloatPlane, width: number, height: number): FloatPlane {
  const out = new Float32Array(width * height);
  const sx = source.width / width;
  const sy = source.height / height;
  // The horizontal taps are the same on every row: worked out once.
  const x0s = new Int32Array(width);
  const x1s = new Int32Array(width);
  const wxs = new Float32Array(width);
  for (let x = 0; x < width; x += 1) {
    const fx = Math.min(source.width - 1, Math.max(0, (x + 0.5) * sx - 0.5));
    x0s[x] = Math.floor(fx);
    x1s[x] = Math.min(source.width - 1, x0s[x]! + 1);
    wxs[x] = fx - x0s[x]!;
  }
  for (let y = 0; y < height; y += 1) {
    const fy = Math.min(source.height - 1, Math.max(0, (y + 0.5) * sy - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(source.height - 1, y0 + 1);
    const wy = fy - y0;
    const row0 = y0 * source.width;
    const row1 = y1 * source.width;
    for (let x = 0; x < width; x += 1) {
      const x0 = x0s[x]!;
      const x1 = x1s[x]!;
      const wx = wxs[x]!;
      const top = source.data[row0 + x0]! * (1 - wx) + source.data[row0 + x1]! * wx;
      const bottom = source.data[row1 + x0]! * (1 - wx) + source.data[row1 + x1]! * wx;
      out[y * width + x] = top * (1 - wy) + bottom * wy;
    }
  }
  return { data: out, width, height };
}

/** Bounding box of the cells above a threshold, or undefined when there are none. */
export function boundsAbove(
  values: ArrayLike<number>,
  width: number,
  height: number,
  threshold: number,
): { left: number; top: number; right: number; bottom: number } | undefined {
  let left = width;
  let top = height;
  let right = -1;
  let bottom = -1;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      if (values[y * width + x]! > threshold) {
        if (x < left) left = x;
        if (x > right) right = x;
        if (y < top) top = y;
        if (y > bottom) bottom = y;
      }
    }
  }
  return right < 0 ? undefined : { left, top, right: right + 1, bottom: bottom + 1 };
}

/** A rectangle of a raster in its own pixel units (fractions allowed). */
export interface Window {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Bilinear sampling position along one axis: the two source cells and the weight of the second. */
function tap(position: number, size: number): [number, number, number] {
  const clamped = Math.min(size - 1, Math.max(0, position));
  const low = Math.floor(clamped);
  return [low, Math.min(size - 1, low + 1), clamped - low];
}

/** A window of a plane resampled (bilinear) to width × height. */
export function resampleWindow(source: FloatPlane, window: Window, width: number, height: number): FloatPlane {
  const out = new Float32Array(width * height);
  const sx = window.width / width;
  const sy = window.height / height;
  for (let y = 0; y < height; y += 1) {
    const [y0, y1, wy] = tap(window.top + (y + 0.5) * sy - 0.5, source.height);
    for (let x = 0; x < width; x += 1) {
      const [x0, x1, wx] = tap(window.left + (x + 0.5) * sx - 0.5, source.width);
      const top = source.data[y0 * source.width + x0]! * (1 - wx) + source.data[y0 * source.width + x1]! * wx;
      const bottom = source.data[y1 * source.width + x0]! * (1 - wx) + source.data[y1 * source.width + x1]! * wx;
      out[y * width + x] = top * (1 - wy) + bottom * wy;
    }
  }
  return { data: out, width, height };
}

/**
 * A window of interleaved 8-bit RGB resampled to width × height as interleaved floats 0..1, each output cell the
 * mean of the source cells it covers (no aliasing of fine texture when reducing).
 */
export function resampleRgbWindow(
  rgb: Uint8Array,
  sourceWidth: number,
  window: Window,
  width: number,
  height: number,
): Float32Array {
  const out = new Float32Array(width * height * 3);
  const sx = window.width / width;
  const sy = window.height / height;
  for (let y = 0; y < height; y += 1) {
    const y0 = Math.floor(window.top + y * sy);
    const y1 = Math.max(y0 + 1, Math.floor(window.top + (y + 1) * sy));
    for (let x = 0; x < width; x += 1) {
      const x0 = Math.floor(window.left + x * sx);
      const x1 = Math.max(x0 + 1, Math.floor(window.left + (x + 1) * sx));
      let r = 0;
      let g = 0;
      let b = 0;
      for (let yy = y0; yy < y1; yy += 1) {
        for (let xx = x0; xx < x1; xx += 1) {
          const k = (yy * sourceWidth + xx) * 3;
          r += rgb[k]!;
          g += rgb[k + 1]!;
          b += rgb[k + 2]!;
        }
      }
      const count = 255 * (y1 - y0) * (x1 - x0);
      out[(y * width + x) * 3] = r / count;
      out[(y * width + x) * 3 + 1] = g / count;
      out[(y * width + x) * 3 + 2] = b / count;
    }
  }
  return out;
}
