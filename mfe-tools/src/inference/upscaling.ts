import { placeTile, planEvenTiles } from '../algorithms/tiling';
import type { RunModel } from './model-runner';
import { cropRgba, planarToRgba, rgbaToPlanar, type RgbaImage } from './tensors';

/** Real-ESRGAN general x4v3: input x/255 (no mean or std), output 4× in [0,1]. */
export const UPSCALE_FACTOR = 4;
/**
 * Tiles of at most 256 px a side (a 256² tile's 64-channel activations stay ~17 MB as uint8 in WASM memory), each
 * side cut into the fewest equal parts, with an 8-px overlap (MODELS.md). The model's time per pixel is the same
 * for 144² and 392² tiles in WASM, so fewer, larger tiles only save the overlap: a 384-px photo is 4 tiles of 200²
 * (160 000 pixels through the model), where 128-px tiles were 9 of 136–144 px a side (173 056).
 */
export const UPSCALE_MAX_TILE = 256;
export const UPSCALE_OVERLAP = 8;

/** The image at 4×, tile by tile; `onTile(done, total)` after each tile. */
export async function upscaleImage(
  image: RgbaImage,
  run: RunModel,
  onTile: (done: number, total: number) => void = () => undefined,
): Promise<RgbaImage> {
  const tiles = planEvenTiles(image.width, image.height, UPSCALE_MAX_TILE, UPSCALE_OVERLAP);
  const width = image.width * UPSCALE_FACTOR;
  const height = image.height * UPSCALE_FACTOR;
  const data = new Uint8ClampedArray(width * height * 4);
  for (const [index, tile] of tiles.entries()) {
    const input = rgbaToPlanar(cropRgba(image, tile.x, tile.y, tile.width, tile.height), tile.width, tile.height);
    const output = await run(input, [1, 3, tile.height, tile.width]);
    const tileRgba = planarToRgba(output.data, tile.width * UPSCALE_FACTOR, tile.height * UPSCALE_FACTOR);
    placeTile(data, image.width, tile, tileRgba, UPSCALE_FACTOR);
    onTile(index + 1, tiles.length);
  }
  return { data, width, height };
}
