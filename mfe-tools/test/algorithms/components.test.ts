import { keepLargestComponents } from '../../src/algorithms/components';

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

describe('keeping the large regions', () => {
  const { width, height, mask } = maskOf(['#####.....', '#...#....#', '#...#.....', '#####...##', '........##']);

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
});
