import { boxMean } from '../src/box-mean';
import { colourGuidedFilter } from '../src/guided-filter';
import type { FloatPlane } from '../src/plane';
import { dilate, erode, fillHoles, labelRegions } from '../src/regions';
import { resampleRgbWindow, resizeBilinear } from '../src/resample';

/** A binary mask from rows of text: '#' set, '.' unset. */
function mask(rows: string[]): { data: Uint8Array; width: number; height: number } {
  const width = rows[0]!.length;
  const data = new Uint8Array(width * rows.length);
  rows.forEach((row, y) => [...row].forEach((cell, x) => (data[y * width + x] = cell === '#' ? 1 : 0)));
  return { data, width, height: rows.length };
}

/** A mask as rows of text again. */
function rowsOf(data: Uint8Array, width: number): string[] {
  const rows: string[] = [];
  for (let i = 0; i < data.length; i += width)
    rows.push(Array.from(data.subarray(i, i + width), (v) => (v ? '#' : '.')).join(''));
  return rows;
}

function floatPlane(width: number, height: number, value: (x: number, y: number) => number): FloatPlane {
  const data = new Float32Array(width * height);
  for (let y = 0; y < height; y += 1) for (let x = 0; x < width; x += 1) data[y * width + x] = value(x, y);
  return { data, width, height };
}

describe('box mean', () => {
  const values = Float32Array.from([1, 2, 3, 4]);

  it('averages over the clipped window when the edges shrink', () => {
    expect(Array.from(boxMean(values, 4, 1, 1, 'shrink'))).toEqual([1.5, 2, 3, 3.5]);
  });

  it('counts the border pixel again for each missing one when the edges repeat', () => {
    const mean = Array.from(boxMean(values, 4, 1, 1, 'repeat'));
    [4 / 3, 2, 3, 11 / 3].forEach((expected, x) => expect(mean[x]).toBeCloseTo(expected, 6));
  });

  /** The window mean of one pixel, counted out: what the two running-sum passes must give. */
  function windowMean(plane: FloatPlane, x: number, y: number, r: number, edges: 'shrink' | 'repeat'): number {
    const clamp = (value: number, size: number) => Math.min(size - 1, Math.max(0, value));
    let sum = 0;
    let count = 0;
    for (let dy = -r; dy <= r; dy += 1) {
      for (let dx = -r; dx <= r; dx += 1) {
        const inside = x + dx >= 0 && x + dx < plane.width && y + dy >= 0 && y + dy < plane.height;
        if (!inside && edges === 'shrink') continue;
        sum += plane.data[clamp(y + dy, plane.height) * plane.width + clamp(x + dx, plane.width)]!;
        count += 1;
      }
    }
    return sum / count;
  }

  it.each(['shrink', 'repeat'] as const)('matches the counted window mean in two dimensions (%s edges)', (edges) => {
    const plane = floatPlane(9, 7, (x, y) => ((x * 7 + y * 13) % 11) / 10);
    const out = new Float32Array(plane.data.length);
    const scratch = new Float32Array(plane.data.length);
    for (const r of [1, 2, 5, 12]) {
      // Memory reused between calls (out, scratch) gives the same answer as fresh memory.
      for (const mean of [boxMean(plane.data, 9, 7, r, edges), boxMean(plane.data, 9, 7, r, edges, out, scratch)]) {
        for (let y = 0; y < 7; y += 1) {
          for (let x = 0; x < 9; x += 1) expect(mean[y * 9 + x]).toBeCloseTo(windowMean(plane, x, y, r, edges), 5);
        }
      }
    }
  });
});

describe('bilinear resampling', () => {
  it('keeps a plane of its own size and interpolates between pixel centres', () => {
    const source = floatPlane(2, 1, (x) => x);
    expect(Array.from(resizeBilinear(source, 2, 1).data)).toEqual([0, 1]);
    expect(Array.from(resizeBilinear(source, 4, 1).data)).toEqual([0, 0.25, 0.75, 1]);
  });

  it('the area sampler averages the cells it covers', () => {
    const rgb = new Uint8Array([0, 0, 0, 255, 255, 255, 0, 0, 0, 255, 255, 255]);
    expect([...resampleRgbWindow(rgb, 2, { left: 0, top: 0, width: 2, height: 2 }, 1, 1)]).toEqual([0.5, 0.5, 0.5]);
  });
});

describe('mask regions and holes', () => {
  test('regions are labelled 4-connected with their sizes', () => {
    const { data, width } = mask(['##..#', '#...#', '....#', '.#..#']);
    const { labels, sizes } = labelRegions(data, width);
    expect([...sizes].sort()).toEqual([1, 3, 4]);
    expect(labels[0]).toBe(labels[5]);
    expect(labels[2]).toBe(-1);
  });

  test('an enclosed hole is filled, a loop open to the frame is not, and a large hole stays when capped', () => {
    const ring = mask(['.......', '.#####.', '.#...#.', '.#...#.', '.#####.', '.......']);
    expect([...fillHoles(ring.data, ring.width, ring.height)].slice(2 * 7 + 2, 2 * 7 + 5)).toEqual([1, 1, 1]);
    expect([...fillHoles(ring.data, ring.width, ring.height, 0.2)]).toEqual([...ring.data]);
    const open = mask(['.......', '.#####.', '.#.....', '.#.....', '.#####.', '.......']);
    expect([...fillHoles(open.data, open.width, open.height)]).toEqual([...open.data]);
  });

  describe('8-connected, as the browser tools use them', () => {
    const { data, width, height } = mask(['#####.....', '#...#....#', '#...#.....', '#####...##', '........##']);

    it('labels 8-connected regions with their sizes', () => {
      const { sizes } = labelRegions(data, width, 8);
      expect([...sizes].sort((a, b) => a - b)).toEqual([1, 4, 14]);
    });

    it('joins cells that only share a corner', () => {
      const diagonal = mask(['#.', '.#']);
      expect(labelRegions(diagonal.data, 2, 8).sizes).toEqual([2]);
      expect(labelRegions(diagonal.data, 2, 4).sizes).toEqual([1, 1]);
    });

    it('fills holes that do not touch the border', () => {
      const filled = fillHoles(data, width, height, Infinity, 8);
      expect(rowsOf(filled, width).slice(0, 4)).toEqual(['#####.....', '#####....#', '#####.....', '#####...##']);
    });
  });
});

describe('dilation and erosion', () => {
  it('dilates by a square radius', () => {
    const single = mask(['.....', '.....', '..#..', '.....', '.....']);
    expect(rowsOf(dilate(single.data, 5, 5, 1), 5)).toEqual(['.....', '.###.', '.###.', '.###.', '.....']);
  });

  it('erodes by a square radius, the frame counting as set', () => {
    const block = mask(['####.', '####.', '####.', '####.']);
    expect(rowsOf(erode(block.data, 5, 4, 1), 5)).toEqual(['###..', '###..', '###..', '###..']);
  });
});

describe('colour guided filter', () => {
  test('snaps a soft mask to an edge between two colours of equal brightness', () => {
    // Red product on the left half, green grass on the right, both of luminance about 0.45.
    const width = 64;
    const height = 16;
    const rgb = new Uint8Array(width * height * 3);
    for (let k = 0; k < width * height; k += 1) rgb.set(k % width < 32 ? [230, 60, 60] : [30, 160, 90], k * 3);
    // The upsampled coarse mask: a ramp over 16 px around the edge.
    const soft = floatPlane(width, height, (x) => Math.min(1, Math.max(0, (40 - x) / 16)));
    // Across the colour edge (x 31 → 33) the snapped mask drops almost three times as steeply as the soft one (2/16).
    const step = (values: Float32Array) => values[8 * width + 31]! - values[8 * width + 33]!;
    expect(step(soft.data)).toBeCloseTo(0.125, 3);
    expect(step(colourGuidedFilter(rgb, soft, 4, 1e-4).data)).toBeGreaterThan(0.3);
    expect(step(colourGuidedFilter(rgb, soft, 4, 1e-4, { subsample: 1, edges: 'shrink' }).data)).toBeGreaterThan(0.3);
  });
});
