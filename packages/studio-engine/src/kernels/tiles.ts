import type { RgbImage } from './decode';
import { sharedBuffer } from '../threads/shared-memory';

/*
 * The upscaler's tiles (pixel thread): laid out, packed as the model's input, unpacked from its output. The model
 * runs on the inference thread, called from render/upscale.ts.
 */

export const SCALE = 4;

/**
 * Longest tile side (input pixels). realesr-general-x4v3 costs about the same per input pixel at any tile size on a
 * CPU (measured here: float32 128² and 460² tiles within 5% per pixel; the static int8 model 11.9, 10.6 and
 * 10.3 µs per pixel at 128², 256² and 512²), so what decides the cost is how many pixels go
 * through the model: the overlap recomputed around every tile, and the empty corners of a product that is not a
 * rectangle. `tileSizeFor` picks the size that sends the fewest pixels. Memory per tile stays bounded (~250 MB of
 * activations at 512²).
 */
export const MAX_TILE = 512;
/** Tile sizes tried for a crop, largest first (a larger tile wins a tie: fewer calls). */
const TILE_SIZES = [MAX_TILE, 256, 192, 128];

/** One tile: its core (kept) and the core plus context (run through the model), in input pixels. */
export interface Tile {
  left: number;
  top: number;
  coreRight: number;
  coreBottom: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Equal tiles of at most `tile` pixels a side (no thin leftover tile at the edge); those with no coverage left out. */
function layTiles(
  width: number,
  height: number,
  coverage: Uint8Array | undefined,
  tile: number,
  overlap: number,
): Tile[] {
  const tileWidth = Math.ceil(width / Math.ceil(width / tile));
  const tileHeight = Math.ceil(height / Math.ceil(height / tile));
  const tiles: Tile[] = [];
  for (let top = 0; top < height; top += tileHeight) {
    for (let left = 0; left < width; left += tileWidth) {
      const coreRight = Math.min(width, left + tileWidth);
      const coreBottom = Math.min(height, top + tileHeight);
      const x0 = Math.max(0, left - overlap);
      const y0 = Math.max(0, top - overlap);
      const x1 = Math.min(width, coreRight + overlap);
      const y1 = Math.min(height, coreBottom + overlap);
      if (coverage && isEmpty(coverage, width, x0, y0, x1, y1)) continue;
      tiles.push({ left, top, coreRight, coreBottom, x0, y0, x1, y1 });
    }
  }
  return tiles;
}

/** The tile size (of `TILE_SIZES`) that sends the fewest pixels through the model, overlap and empty tiles counted. */
export function tileSizeFor(width: number, height: number, coverage: Uint8Array | undefined, overlap: number): number {
  let best = TILE_SIZES[0]!;
  let fewest = Infinity;
  for (const tile of TILE_SIZES) {
    const pixels = layTiles(width, height, coverage, tile, overlap).reduce(
      (sum, { x0, y0, x1, y1 }) => sum + (x1 - x0) * (y1 - y0),
      0,
    );
    if (pixels < fewest) {
      fewest = pixels;
      best = tile;
    }
  }
  return best;
}

/** x / 255 of each byte. */
const UNIT = new Float32Array(256).map((_, v) => v / 255);

/** The tiles of an image with their model inputs (planar RGB, x/255). Runs on the pixel thread. */
export function packTiles(
  image: RgbImage,
  coverage: Uint8Array | undefined,
  tile: number | undefined,
  overlap: number,
): Array<Tile & { input: Float32Array }> {
  const { width, height, data } = image;
  const size = tile ?? tileSizeFor(width, height, coverage, overlap);
  return layTiles(width, height, coverage, size, overlap).map((placed) => {
    const { x0, y0, x1, y1 } = placed;
    const tw = x1 - x0;
    const th = y1 - y0;
    const plane = tw * th;
    const input = new Float32Array(3 * plane);
    for (let y = 0, target = 0; y < th; y += 1) {
      for (let source = ((y0 + y) * width + x0) * 3, x = 0; x < tw; x += 1, source += 3, target += 1) {
        input[target] = UNIT[data[source]!]!;
        input[plane + target] = UNIT[data[source + 1]!]!;
        input[2 * plane + target] = UNIT[data[source + 2]!]!;
      }
    }
    return { ...placed, input };
  });
}

/**
 * The model's planar float output of a tile → the tile's core as interleaved 8-bit RGB, in shared memory (the main
 * thread reads it without a copy). Runs on the pixel thread.
 */
export function unpackTile(output: Float32Array, tile: Tile): Uint8Array {
  const ow = (tile.x1 - tile.x0) * SCALE;
  const outPlane = ow * (tile.y1 - tile.y0) * SCALE;
  const coreWidth = (tile.coreRight - tile.left) * SCALE;
  const coreHeight = (tile.coreBottom - tile.top) * SCALE;
  const core = sharedBuffer(coreWidth * coreHeight * 3);
  const offsetX = (tile.left - tile.x0) * SCALE;
  const offsetY = (tile.top - tile.y0) * SCALE;
  for (let y = 0, target = 0; y < coreHeight; y += 1) {
    const row = (offsetY + y) * ow + offsetX;
    for (let source = row; source < row + coreWidth; source += 1, target += 3) {
      core[target] = clampByte(output[source]!);
      core[target + 1] = clampByte(output[outPlane + source]!);
      core[target + 2] = clampByte(output[2 * outPlane + source]!);
    }
  }
  return core;
}

/** photo's low frequencies + the model's high ones (model − its own low frequencies), clamped. Pixel thread. */
export function addFinerDetail(photoLow: Uint8Array, model: Uint8Array, modelLow: Uint8Array): Uint8Array {
  const out = new Uint8ClampedArray(model.length);
  for (let k = 0; k < model.length; k += 1) out[k] = photoLow[k]! + model[k]! - modelLow[k]!;
  return new Uint8Array(out.buffer);
}

/** value × 255 rounded (halves up, as Math.round) and clamped to a byte. */
function clampByte(value: number): number {
  const scaled = value * 255 + 0.5;
  return scaled < 1 ? 0 : scaled >= 255 ? 255 : scaled | 0;
}

function isEmpty(coverage: Uint8Array, width: number, x0: number, y0: number, x1: number, y1: number): boolean {
  for (let y = y0; y < y1; y += 1) {
    for (let x = x0; x < x1; x += 1) if (coverage[y * width + x]! > 0) return false;
  }
  return true;
}
