import { placeTile, planTiles } from '../algorithms/tiling';
import type { RunModel } from './model-runner';
import { cropRgba, planarToRgba, rgbaToPlanar, type RgbaImage } from './tensors';

/** Real-ESRGAN general x4v3: input x/255 (no mean or std), output 4× in [0,1]. */
export const UPSCALE_FACTOR = 4;
/** MODELS.md: 128-px tiles with a small overlap; 128² takes about 0.7 s in WASM with 2 threads. */
export const UPSCALE_TILE = 128;
export const UPSCALE_OVERLAP = 8;

/** The image at 4×, tile by tile; `onTile(done, total)` after each tile. */
export async function upscaleImage(
  image: RgbaImage,
  run: RunModel,
  onTile: (done: number, total: number) => void = () => undefined,
): Promise<RgbaImage> {
  const tiles = planTiles(image.width, image.height, UPSCALE_TILE, UPSCALE_OVERLAP);
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
