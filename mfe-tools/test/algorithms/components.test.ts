import { dilate, fillHoles, keepLargestComponents, labelComponents } from '../../src/algorithms/components';

/** Rows of "#" (set) and "." (unset) → a mask. */
function maskOf(rows: string[]) {
  const width = rows[0].length;
  return { width, height: rows.length, mask: Uint8Array.from(rows.join('').split(''), (c) => (c === '#' ? 1 : 0)) };
}
function rowsOf(mask: Uint8Array, width: number): string[] {
  const rows: string[] = [];
  for (let i = 0; i < mask.length; i += width)
    rows.push(Array.from(mask.subarray(i, i + width), (v) => (v ? '#' : '.')).join(''));
  return rows;
}

describe('connected components', () => {
  const { width, height, mask } = maskOf(['#####.....', '#...#....#', '#...#.....', '#####...##', '........##']);

  it('labels 8-connected regions with their sizes', () => {
    const { sizes } = labelComponents(mask, width, height);
    expect(sizes.slice(1).sort((a, b) => a - b)).toEqual([1, 4, 14]);
  });

  it('keeps the largest region and those at least the given share of it', () => {
    expect(rowsOf(keepLargestComponents(mask, width, height, 0.2), width)).toEqual([
      '#####.....',
      '#...#.....',
      '#...#.....',
      '#####...##',
      '........##',
    ]);
    expect(keepLargestComponents(mask, width, height, 0.5).reduce((a, b) => a + b, 0)).toBe(14);
  });

  it('fills holes that do not touch the border', () => {
    const filled = fillHoles(mask, width, height);
    expect(rowsOf(filled, width).slice(0, 4)).toEqual(['#####.....', '#####....#', '#####.....', '#####...##']);
  });

  it('dilates by a square radius', () => {
    const single = maskOf(['.....', '.....', '..#..', '.....', '.....']);
    expect(rowsOf(dilate(single.mask, 5, 5, 1), 5)).toEqual(['.....', '.###.', '.###.', '.###.', '.....']);
  });
});
