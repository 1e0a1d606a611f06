/*
 * The per-pixel compositing of an image: pure functions of plain data, run on the pixel thread (no libvips here).
 * Measured at 2048² on this 2-core machine, libvips at sharp's default concurrency of 1 spent ~120 ms resampling the
 * backdrop (lanczos3), ~90 ms compositing the product and ~70 ms compositing the watermark (its `over` works in
 * float over every pixel); these integer loops do the same in ~22 + 15 + 4 ms (the light match, a libvips float
 * pass of ~47 ms, is folded into the product's), and the one libvips step left is the JPEG encode (~17 ms).
 */
import { checkMarketplaceWhite, type MarketplaceCheck } from './marketplace';

/** A straight-alpha RGBA layer and where its top-left corner sits on the canvas (may be partly off the canvas). */
export interface Layer {
  data: Uint8Array;
  width: number;
  height: number;
  left: number;
  top: number;
  /** out = in × gain + offset per channel, rounded, applied to the layer's colour as it is drawn (light match). */
  light?: { gain: readonly number[]; offset: readonly number[] };
}

/**
 * The byte each value becomes under `light`, as libvips' `linear` (offset + 0.5) gave it before: float arithmetic,
 * truncated and clamped on the cast back to 8 bits. Channel c's table starts at c × 256.
 */
function lightTable(light: NonNullable<Layer['light']>): Uint8Array {
  const table = new Uint8Array(768);
  for (let c = 0; c < 3; c += 1) {
    const gain = Math.fround(light.gain[c]!);
    const offset = Math.fround(light.offset[c]! + 0.5);
    for (let v = 0; v < 256; v += 1) {
      table[c * 256 + v] = Math.min(255, Math.max(0, Math.fround(Math.fround(v * gain) + offset)));
    }
  }
  return table;
}

const IDENTITY = new Uint8Array(768).map((_, k) => k & 255);

export interface CanvasRequest {
  /** Everything behind the product, RGB, `backdropSize` square; resampled when it is not `size`. None: white. */
  backdrop?: Uint8Array;
  backdropSize: number;
  size: number;
  product: Layer;
  /** Marketplace white: the rule is checked on the composed pixels, before any watermark. */
  checkWhite: boolean;
  /** The free tier's watermark, `size` square (shared memory: the same for every image). */
  watermark?: Overlay;
}

/**
 * A straight-RGBA overlay as large as the canvas that shows on a small part of it (the watermark: ~7% of its
 * pixels): `runs` holds the [first, end) pixel indices of its visible stretches, so drawing it skips the rest
 * without reading it (~11 → ~2 ms at 2048²).
 */
export interface Overlay {
  rgba: Uint8Array;
  runs: Int32Array;
}

/** The visible stretches of an overlay (alpha > 0), for `Overlay.runs`. */
export function overlayRuns(rgba: Uint8Array): Int32Array {
  const runs: number[] = [];
  const pixels = rgba.length / 4;
  for (let k = 0; k < pixels; k += 1) {
    if (rgba[k * 4 + 3] === 0) continue;
    const first = k;
    while (k < pixels && rgba[k * 4 + 3] !== 0) k += 1;
    runs.push(first, k);
  }
  return Int32Array.from(runs);
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
export function resampleRgb(
  source: Uint8Array,
  from: number,
  to: number,
  out: Uint8Array = new Uint8Array(to * to * 3),
): Uint8Array {
  if (to === 2 * from && to % 4 === 0) return doubleRgb(source, from, out);
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

/** One row of RGB pixels doubled across: each source pixel gives ¼·left + ¾·itself and ¾·itself + ¼·right. */
function doubleRow(source: Uint8Array, start: number, from: number, wide: Uint8Array): void {
  for (let j = 0, at = start, target = 0; j < from; j += 1, at += 3, target += 6) {
    const left = j > 0 ? at - 3 : at;
    const right = j < from - 1 ? at + 3 : at;
    const r = 3 * source[at]!;
    const g = 3 * source[at + 1]!;
    const b = 3 * source[at + 2]!;
    wide[target] = (source[left]! + r + 2) >> 2;
    wide[target + 1] = (source[left + 1]! + g + 2) >> 2;
    wide[target + 2] = (source[left + 2]! + b + 2) >> 2;
    wide[target + 3] = (r + source[right]! + 2) >> 2;
    wide[target + 4] = (g + source[right + 1]! + 2) >> 2;
    wide[target + 5] = (b + source[right + 2]! + 2) >> 2;
  }
}

/** ¼·a + ¾·b, rounded, per byte: two bytes at a time in each 32-bit word (16-bit lanes never overflow). */
function mixRows(a: Uint32Array, b: Uint32Array, out: Uint32Array, at: number): void {
  for (let k = 0; k < a.length; k += 1) {
    const p = a[k]!;
    const q = b[k]!;
    const even = (((p & 0xff00ff) + 3 * (q & 0xff00ff) + 0x20002) >>> 2) & 0xff00ff;
    const odd = ((((p >>> 8) & 0xff00ff) + 3 * ((q >>> 8) & 0xff00ff) + 0x20002) >>> 2) & 0xff00ff;
    out[at + k] = even | (odd << 8);
  }
}

/**
 * The exact 2× case of `resampleRgb` (the 1024-px backdrop under a 2048-px image): its taps are ¼ and ¾, so each
 * source row is doubled across once and output rows mix two doubled rows, four bytes at a time. The same pixels as
 * the general path, except that rounding across before down moves a value by at most one level.
 */
function doubleRgb(source: Uint8Array, from: number, out: Uint8Array): Uint8Array {
  const rowBytes = from * 6;
  const words = new Uint32Array(out.buffer, out.byteOffset, out.byteLength / 4);
  // Doubled rows i - 1, i, i + 1 (edges repeated: a row mixed with itself is itself).
  let [previous, current, next] = [0, 1, 2].map(() => new Uint8Array(rowBytes));
  doubleRow(source, 0, from, current!);
  previous!.set(current!);
  for (let i = 0; i < from; i += 1) {
    if (i + 1 < from) doubleRow(source, (i + 1) * from * 3, from, next!);
    else next!.set(current!);
    const [above, here, below] = [previous!, current!, next!].map((row) => new Uint32Array(row.buffer));
    mixRows(above!, here!, words, (2 * i * rowBytes) / 4);
    mixRows(below!, here!, words, ((2 * i + 1) * rowBytes) / 4);
    [previous, current, next] = [current, next, previous];
  }
  return out;
}

/**
 * Straight-alpha "over" of `layer` (with its light match) onto the RGB canvas, rounded: an opaque pixel is copied exactly, a
 * transparent one leaves the canvas exactly as it was. With `coverage`, the layer's alpha is recorded there.
 */
export function blendLayer(canvas: Uint8Array, size: number, layer: Layer, coverage?: Uint8Array): void {
  const { data, width, left, top } = layer;
  const table = layer.light ? lightTable(layer.light) : IDENTITY;
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
      over(
        canvas,
        pixel * 3,
        table[data[source]!]!,
        table[256 + data[source + 1]!]!,
        table[512 + data[source + 2]!]!,
        a,
      );
    }
  }
}

/** One straight-alpha pixel (r, g, b, a > 0) over the canvas's pixel at byte `target`, rounded. */
function over(canvas: Uint8Array, target: number, r: number, g: number, b: number, a: number): void {
  if (a === 255) {
    canvas[target] = r;
    canvas[target + 1] = g;
    canvas[target + 2] = b;
    return;
  }
  const rest = 255 - a;
  canvas[target] = ((canvas[target]! * rest + r * a + 127) / 255) | 0;
  canvas[target + 1] = ((canvas[target + 1]! * rest + g * a + 127) / 255) | 0;
  canvas[target + 2] = ((canvas[target + 2]! * rest + b * a + 127) / 255) | 0;
}

/** An overlay as large as the canvas, drawn over its visible stretches only (the same pixels as `blendLayer`). */
export function blendOverlay(canvas: Uint8Array, overlay: Overlay): void {
  const { rgba, runs } = overlay;
  for (let run = 0; run < runs.length; run += 2) {
    for (let pixel = runs[run]!; pixel < runs[run + 1]!; pixel += 1) {
      const source = pixel * 4;
      over(canvas, pixel * 3, rgba[source]!, rgba[source + 1]!, rgba[source + 2]!, rgba[source + 3]!);
    }
  }
}

/** The memory an image is composed in: its RGB pixels and the product's coverage (`size`² each). */
export interface CanvasMemory {
  rgb: Uint8Array;
  coverage: Uint8Array;
}

/**
 * One image: the backdrop at `size`, the product over it, the marketplace check, then the watermark. Composed in
 * `memory` when given (every byte of it is written), in fresh memory otherwise.
 */
export function composeCanvas(request: CanvasRequest, memory?: CanvasMemory): Canvas {
  const { backdrop, backdropSize, size } = request;
  const rgb = memory?.rgb ?? new Uint8Array(size * size * 3);
  if (!backdrop) rgb.fill(255);
  else if (backdropSize === size) rgb.set(backdrop);
  else resampleRgb(backdrop, backdropSize, size, rgb);
  const coverage = memory ? memory.coverage.fill(0) : new Uint8Array(size * size);
  blendLayer(rgb, size, request.product, coverage);
  const marketplace = request.checkWhite ? checkMarketplaceWhite(rgb, size, size, coverage) : undefined;
  if (request.watermark) blendOverlay(rgb, request.watermark);
  return { rgb, coverage, marketplace };
}
