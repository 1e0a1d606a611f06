/** A tile of an image to upscale: the region read (with overlap) and the inner region written back. */
export interface Tile {
  /** Region given to the model, in input pixels. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** Region of the tile's output kept in the result, in input pixels (the overlap is dropped). */
  keepX: number;
  keepY: number;
  keepWidth: number;
  keepHeight: number;
}

/**
 * Cuts an image into tiles of at most `tileSize` × `tileHeight` (plus `overlap` on each inner side) whose kept
 * regions cover every pixel exactly once. The model sees each tile's neighbours through the overlap, so seams do
 * not show.
 */
export function planTiles(
  width: number,
  height: number,
  tileSize: number,
  overlap: number,
  tileHeight = tileSize,
): Tile[] {
  const tiles: Tile[] = [];
  for (let keepY = 0; keepY < height; keepY += tileHeight) {
    const keepHeight = Math.min(tileHeight, height - keepY);
    for (let keepX = 0; keepX < width; keepX += tileSize) {
      const keepWidth = Math.min(tileSize, width - keepX);
      const x = Math.max(0, keepX - overlap);
      const y = Math.max(0, keepY - overlap);
      tiles.push({
        x,
        y,
        width: Math.min(width, keepX + keepWidth + overlap) - x,
        height: Math.min(height, keepY + keepHeight + overlap) - y,
        keepX,
        keepY,
        keepWidth,
        keepHeight,
      });
    }
  }
  return tiles;
}

/**
 * Copies the kept region of one tile's output (RGBA, `scale`× the tile) into the full output (RGBA, `scale`× the
 * input of `width` pixels per row).
 */
export function placeTile(
  output: Uint8ClampedArray,
  width: number,
  tile: Tile,
  tileOutput: Uint8ClampedArray,
  scale: number,
): void {
  const outputRow = width * scale;
  const tileRow = tile.width * scale;
  const fromX = (tile.keepX - tile.x) * scale;
  const fromY = (tile.keepY - tile.y) * scale;
  for (let y = 0; y < tile.keepHeight * scale; y += 1) {
    const source = ((fromY + y) * tileRow + fromX) * 4;
    const target = ((tile.keepY * scale + y) * outputRow + tile.keepX * scale) * 4;
    output.set(tileOutput.subarray(source, source + tile.keepWidth * scale * 4), target);
  }
}

/**
 * The tile plan that sends the fewest pixels through a model whose tiles may be at most `maxTile` a side: each
 * side split into the fewest equal parts (a 384-px side: two of 192, not 128 + 128 + 128 with twice the overlaps).
 */
export function planEvenTiles(width: number, height: number, maxTile: number, overlap: number): Tile[] {
  const part = (side: number) => Math.ceil(side / Math.ceil(side / maxTile));
  return planTiles(width, height, part(width), overlap, part(height));
}
