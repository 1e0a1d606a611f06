/*
 * The per-pixel compositing of an image: pure functions of plain data, run on the pixel thread (no libvips here).
 * Measured at 2048² on this 2-core machine, libvips at sharp's default concurrency of 1 spent ~120 ms resampling the
 * backdrop (lanczos3), ~90 ms compositing the product and ~70 ms compositing the watermark (its `over` works in
 * float over every pixel); these integer loops do the same in ~30 + 20 + 10 ms, and the one libvips step left is
 * the JPEG encode (~17 ms).
 */
import { checkMarketplaceWhite, type MarketplaceCheck } from './marketplace';

/** A straight-alpha RGBA layer and where its top-left corner sits on the canvas (may be partly off the canvas). */
export interface Layer {
  data: Uint8Array;
  width: number;
  height: number;
  left: number;
  top: number;
}

export interface CanvasRequest {
  /** Everything behind the product, RGB, `backdropSize` square; resampled when it is not `size`. None: white. */
  backdrop?: Uint8Array;
  backdropSize: number;
  size: number;
  product: Layer;
  /** Marketplace white: the rule is checked on the composed pixels, before any watermark. */
  checkWhite: boolean;
  /** The free tier's watermark, straight RGBA `size` square (shared memory: the same for every image). */
  watermark?: Uint8Array;
}

export interface Canvas {
  rgb: Uint8Array;
  /** Product alpha on the canvas (0..255). */
  coverage: Uint8Array;
  marketplace?: MarketplaceCheck;
}

/** Fixed-point (8-bit) bilinear taps of one axis: pixel centres aligned, edges clamped. */
function taps(from: number, to: number): { first: Int32Array; second: Int32Array; weight: Int32Array } {
  const first = new Int32Array(to);
  const second = new Int32Array(to);
  const weight = new Int32Array(to);
  const ratio = from / to;
  for (let k = 0; k < to; k += 1) {
    const position = Math.min(from - 1, Math.max(0, (k + 0.5) * ratio - 0.5));
    const index = Math.floor(position);
    first[k] = index;
    second[k] = Math.min(from - 1, index + 1);
    weight[k] = Math.round((position - index) * 256);
  }
  return { first, second, weight };
}

/**
 * Bilinear resampling of a square RGB image. The backdrop is out of focus and made of smooth gradients with a
 * fine grain, so a 2× bilinear enlargement shows nothing a sharper kernel would; it is only ever enlarged.
 */
export function resampleRgb(source: Uint8Array, from: number, to: number): Uint8Array {
  const out = new Uint8Array(to * to * 3);
  // Square: the same taps serve rows and columns.
  const axis = taps(from, to);
  const rowBytes = from * 3;
  const blended = new Uint16Array(rowBytes);
  for (let y = 0; y < to; y += 1) {
    // Two source rows mixed once, then each output pixel mixes two columns of that row.
    const top = axis.first[y]! * rowBytes;
    const bottom = axis.second[y]! * rowBytes;
    const wy = axis.weight[y]!;
    for (let k = 0; k < rowBytes; k += 1) {
      blended[k] = (source[top + k]! * (256 - wy) + source[bottom + k]! * wy + 128) >> 8;
    }
    let target = y * to * 3;
    for (let x = 0; x < to; x += 1) {
      const left = axis.first[x]! * 3;
      const right = axis.second[x]! * 3;
      const wx = axis.weight[x]!;
      const wl = 256 - wx;
      out[target++] = (blended[left]! * wl + blended[right]! * wx + 128) >> 8;
      out[target++] = (blended[left + 1]! * wl + blended[right + 1]! * wx + 128) >> 8;
      out[target++] = (blended[left + 2]! * wl + blended[right + 2]! * wx + 128) >> 8;
    }
  }
  return out;
}

/**
 * Straight-alpha "over" of `layer` onto the RGB canvas, rounded: an opaque pixel is copied exactly, a transparent
 * one leaves the canvas exactly as it was. With `coverage`, the layer's alpha is recorded there.
 */
export function blendLayer(canvas: Uint8Array, size: number, layer: Layer, coverage?: Uint8Array): void {
  const { data, width, left, top } = layer;
  const x0 = Math.max(0, left);
  const x1 = Math.min(size, left + width);
  const y0 = Math.max(0, top);
  const y1 = Math.min(size, top + layer.height);
  for (let y = y0; y < y1; y += 1) {
    let source = ((y - top) * width + x0 - left) * 4;
    let pixel = y * size + x0;
    for (let x = x0; x < x1; x += 1, source += 4, pixel += 1) {
      const a = data[source + 3]!;
      if (a === 0) continue;
      if (coverage) coverage[pixel] = a;
      const target = pixel * 3;
      if (a === 255) {
        canvas[target] = data[source]!;
        canvas[target + 1] = data[source + 1]!;
        canvas[target + 2] = data[source + 2]!;
        continue;
      }
      const b = 255 - a;
      canvas[target] = ((canvas[target]! * b + data[source]! * a + 127) / 255) | 0;
      canvas[target + 1] = ((canvas[target + 1]! * b + data[source + 1]! * a + 127) / 255) | 0;
      canvas[target + 2] = ((canvas[target + 2]! * b + data[source + 2]! * a + 127) / 255) | 0;
    }
  }
}

/** One image: the backdrop at `size`, the product over it, the marketplace check, then the watermark. */
export function composeCanvas(request: CanvasRequest): Canvas {
  const { backdrop, backdropSize, size } = request;
  const rgb = !backdrop
    ? new Uint8Array(size * size * 3).fill(255)
    : backdropSize === size
      ? Uint8Array.from(backdrop)
      : resampleRgb(backdrop, backdropSize, size);
  const coverage = new Uint8Array(size * size);
  blendLayer(rgb, size, request.product, coverage);
  const marketplace = request.checkWhite ? checkMarketplaceWhite(rgb, size, size, coverage) : undefined;
  if (request.watermark) blendLayer(rgb, size, { data: request.watermark, width: size, height: size, left: 0, top: 0 });
  return { rgb, coverage, marketplace };
}
