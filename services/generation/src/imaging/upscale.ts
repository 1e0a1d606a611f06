import type { InferenceModel } from '../models/runtime';
import type { RgbImage } from './decode';

export const SCALE = 4;

export interface UpscaleOptions {
  /** Core size of a tile (input pixels); memory grows with its square. */
  tile?: number;
  /** Context added around each tile so seams do not show. */
  overlap?: number;
  /** Optional coverage (0..255 per input pixel): tiles with nothing in them are skipped (left black). */
  coverage?: Uint8Array;
}

/**
 * ×4 super-resolution with Real-ESRGAN, tile by tile (bounded memory whatever the input size). Each tile is run
 * with `overlap` pixels of context on every side and only its core is kept, so no seams show.
 */
export async function upscale4x(
  model: InferenceModel,
  image: RgbImage,
  options: UpscaleOptions = {},
): Promise<RgbImage> {
  const tile = options.tile ?? 192;
  const overlap = options.overlap ?? 8;
  const { width, height, data } = image;
  const outWidth = width * SCALE;
  const outHeight = height * SCALE;
  const out = Buffer.alloc(outWidth * outHeight * 3);
  for (let top = 0; top < height; top += tile) {
    for (let left = 0; left < width; left += tile) {
      const coreRight = Math.min(width, left + tile);
      const coreBottom = Math.min(height, top + tile);
      const x0 = Math.max(0, left - overlap);
      const y0 = Math.max(0, top - overlap);
      const x1 = Math.min(width, coreRight + overlap);
      const y1 = Math.min(height, coreBottom + overlap);
      if (options.coverage && isEmpty(options.coverage, width, x0, y0, x1, y1)) continue;
      const tw = x1 - x0;
      const th = y1 - y0;
      const plane = tw * th;
      const input = new Float32Array(3 * plane);
      for (let y = 0; y < th; y += 1) {
        for (let x = 0; x < tw; x += 1) {
          const source = ((y0 + y) * width + x0 + x) * 3;
          const target = y * tw + x;
          input[target] = data[source]! / 255;
          input[plane + target] = data[source + 1]! / 255;
          input[2 * plane + target] = data[source + 2]! / 255;
        }
      }
      const { data: output } = await model.run(input, [1, 3, th, tw]);
      const ow = tw * SCALE;
      const outPlane = ow * th * SCALE;
      for (let y = (top - y0) * SCALE; y < (coreBottom - y0) * SCALE; y += 1) {
        const targetRow = (y0 * SCALE + y) * outWidth;
        for (let x = (left - x0) * SCALE; x < (coreRight - x0) * SCALE; x += 1) {
          const source = y * ow + x;
          const target = (targetRow + x0 * SCALE + x) * 3;
          out[target] = clampByte(output[source]!);
          out[target + 1] = clampByte(output[outPlane + source]!);
          out[target + 2] = clampByte(output[2 * outPlane + source]!);
        }
      }
    }
  }
  return { data: out, width: outWidth, height: outHeight };
}

function clampByte(value: number): number {
  const scaled = Math.round(value * 255);
  return scaled < 0 ? 0 : scaled > 255 ? 255 : scaled;
}

function isEmpty(coverage: Uint8Array, width: number, x0: number, y0: number, x1: number, y1: number): boolean {
  for (let y = y0; y < y1; y += 1) {
    for (let x = x0; x < x1; x += 1) if (coverage[y * width + x]! > 0) return false;
  }
  return true;
}
