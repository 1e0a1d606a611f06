import type { RgbImage } from '../kernels/decode';
import { SCALE } from '../kernels/tiles';
import type { InferenceModel } from '../models/model-sessions';
import { pixelThread } from '../threads/pixel-thread';

export interface UpscaleOptions {
  /** Longest core side of a tile (input pixels); memory grows with its square. Default: `tileSizeFor`. */
  tile?: number;
  /** Context added around each tile so seams do not show. */
  overlap?: number;
  /** Optional coverage (0..255 per input pixel): tiles with nothing in them are skipped (left black). */
  coverage?: Uint8Array;
}

/**
 * ×4 super-resolution with Real-ESRGAN, tile by tile (bounded memory whatever the input size). Each tile is run
 * with `overlap` pixels of context on every side and only its core is kept, so no seams show. Packing and
 * unpacking run on the pixel thread, the model on the inference thread; while one tile's output is unpacked the
 * next tile runs.
 */
export async function upscale4x(
  model: InferenceModel,
  image: RgbImage,
  options: UpscaleOptions = {},
): Promise<RgbImage> {
  const overlap = options.overlap ?? 8;
  const { width, height } = image;
  const outWidth = width * SCALE;
  const outHeight = height * SCALE;
  const out = Buffer.alloc(outWidth * outHeight * 3);
  const tiles = await pixelThread.run('packTiles', [image, options.coverage, options.tile, overlap]);
  const assembling: Promise<void>[] = [];
  for (const { input, ...tile } of tiles) {
    const { data: output } = await model.run(input, [1, 3, tile.y1 - tile.y0, tile.x1 - tile.x0]);
    assembling.push(
      pixelThread.run('unpackTile', [output, tile], [output.buffer as ArrayBuffer]).then((core) => {
        // One row copy per output row.
        const rowBytes = (tile.coreRight - tile.left) * SCALE * 3;
        for (let y = 0; y < (tile.coreBottom - tile.top) * SCALE; y += 1) {
          out.set(
            core.subarray(y * rowBytes, (y + 1) * rowBytes),
            ((tile.top * SCALE + y) * outWidth + tile.left * SCALE) * 3,
          );
        }
      }),
    );
  }
  await Promise.all(assembling);
  return { data: out, width: outWidth, height: outHeight };
}
