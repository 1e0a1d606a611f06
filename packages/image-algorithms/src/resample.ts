import type { FloatPlane } from './plane';

/** Bilinear resampling of a plane (pixel centres aligned, edges clamped). */
export function resizeBilinear(source: FloatPlane, width: number, height: number): FloatPlane {
  const out = new Float32Array(width * height);
  // The horizontal taps are the same on every row: worked out once.
  const x0s = new Int32Array(width);
  const x1s = new Int32Array(width);
  const wxs = new Float64Array(width);
  for (let x = 0; x < width; x += 1)
    [x0s[x], x1s[x], wxs[x]] = tap((x + 0.5) * (source.width / width) - 0.5, source.width);
  for (let y = 0; y < height; y += 1) {
    const [y0, y1, wy] = tap((y + 0.5) * (source.height / height) - 0.5, source.height);
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
  rgb: Uint8Array | Uint8ClampedArray,
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
