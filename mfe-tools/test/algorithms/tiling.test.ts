import { placeTile, planEvenTiles, planTiles } from '../../src/algorithms/tiling';

describe('tiling', () => {
  it('covers every pixel exactly once with kept regions, reading an overlap around them', () => {
    const tiles = planTiles(300, 170, 128, 12);
    const covered = new Uint8Array(300 * 170);
    for (const tile of tiles) {
      expect(tile.width).toBeLessThanOrEqual(128 + 24);
      expect(tile.x).toBeLessThanOrEqual(tile.keepX);
      expect(tile.x + tile.width).toBeGreaterThanOrEqual(tile.keepX + tile.keepWidth);
      for (let y = tile.keepY; y < tile.keepY + tile.keepHeight; y += 1) {
        for (let x = tile.keepX; x < tile.keepX + tile.keepWidth; x += 1) covered[y * 300 + x] += 1;
      }
    }
    expect(tiles).toHaveLength(6);
    expect(covered.every((count) => count === 1)).toBe(true);
    expect(tiles[4]).toMatchObject({ x: 116, y: 116, width: 152, height: 54 });
  });

  it('splits each side into the fewest equal tiles, so fewer overlap pixels go through the model', () => {
    const pixels = (tiles: ReturnType<typeof planTiles>) => tiles.reduce((sum, t) => sum + t.width * t.height, 0);
    const even = planEvenTiles(384, 384, 256, 8);
    expect(even.map((t) => [t.width, t.height])).toEqual([
      [200, 200],
      [200, 200],
      [200, 200],
      [200, 200],
    ]);
    expect(pixels(even)).toBe(160_000);
    expect(pixels(planTiles(384, 384, 128, 8))).toBe(173_056);
    expect(planEvenTiles(600, 200, 256, 8).map((t) => [t.keepWidth, t.keepHeight])).toEqual([
      [200, 200],
      [200, 200],
      [200, 200],
    ]);
    expect(planEvenTiles(100, 80, 256, 8)).toEqual([
      { x: 0, y: 0, width: 100, height: 80, keepX: 0, keepY: 0, keepWidth: 100, keepHeight: 80 },
    ]);
  });

  it('places the kept part of a scaled tile output', () => {
    const [tile] = planTiles(4, 2, 2, 1).filter((t) => t.keepX === 2);
    // The tile reads x 1..3 (3 px wide); ×2 output is 6×4; fill its pixels with their own output column.
    const tileOutput = new Uint8ClampedArray(tile.width * 2 * tile.height * 2 * 4);
    for (let i = 0; i < tileOutput.length / 4; i += 1) tileOutput[4 * i] = i % (tile.width * 2);
    const output = new Uint8ClampedArray(4 * 2 * 2 * 2 * 4);
    placeTile(output, 4, tile, tileOutput, 2);
    const firstRow = Array.from({ length: 8 }, (_, x) => output[4 * x]);
    expect(firstRow).toEqual([0, 0, 0, 0, 2, 3, 4, 5]);
  });
});
