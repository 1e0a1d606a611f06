/**
 * What a box window does past the image's border: `shrink` averages only the pixels inside (the browser tools),
 * `repeat` counts the border pixel again for every missing one (the generation service's matte).
 */
export type BoxEdges = 'shrink' | 'repeat';

/**
 * Mean over a (2r+1)² window of every pixel of a single-channel float image. Two running-sum passes (rows, then
 * columns), so the cost does not depend on the radius.
 */
export function boxMean(
  source: Float32Array,
  width: number,
  height: number,
  radius: number,
  edges: BoxEdges,
): Float32Array {
  const r = Math.max(0, Math.round(radius));
  if (r === 0) return source.slice();
  const rows = new Float32Array(source.length);
  for (let y = 0; y < height; y += 1) meanAlongLine(source, rows, y * width, 1, width, r, edges);
  const out = new Float32Array(source.length);
  for (let x = 0; x < width; x += 1) meanAlongLine(rows, out, x, width, height, r, edges);
  return out;
}

/** The running mean along one row (`step` 1) or column (`step` width) of `length` cells starting at `start`. */
function meanAlongLine(
  source: Float32Array,
  out: Float32Array,
  start: number,
  step: number,
  length: number,
  r: number,
  edges: BoxEdges,
): void {
  const shrink = edges === 'shrink';
  const at = (k: number) => source[start + k * step]!;
  const first = at(0);
  const last = at(length - 1);
  let sum = 0;
  for (let k = -r; k <= r; k += 1) {
    if (k >= 0 && k < length) sum += at(k);
    else if (!shrink) sum += k < 0 ? first : last;
  }
  for (let i = 0; i < length; i += 1) {
    const count = shrink ? Math.min(length - 1, i + r) - Math.max(0, i - r) + 1 : 2 * r + 1;
    out[start + i * step] = sum / count;
    const entering = i + r + 1 < length ? at(i + r + 1) : shrink ? 0 : last;
    const leaving = i - r >= 0 ? at(i - r) : shrink ? 0 : first;
    sum += entering - leaving;
  }
}
