/**
 * Mean over a (2r+1)² window of every pixel of a single-channel float image, with the window clipped at the
 * borders (divided by the pixels actually inside). Two running-sum passes: O(width × height) whatever r is.
 */
export function boxMean(source: Float32Array, width: number, height: number, radius: number): Float32Array {
  const horizontal = new Float32Array(width * height);
  for (let y = 0; y < height; y += 1) {
    const row = y * width;
    let sum = 0;
    for (let x = 0; x <= Math.min(radius, width - 1); x += 1) sum += source[row + x];
    for (let x = 0; x < width; x += 1) {
      const first = Math.max(0, x - radius);
      const last = Math.min(width - 1, x + radius);
      horizontal[row + x] = sum / (last - first + 1);
      if (x + radius + 1 < width) sum += source[row + x + radius + 1];
      if (x - radius >= 0) sum -= source[row + x - radius];
    }
  }
  // The vertical pass walks rows too (a running sum per column), which keeps memory access sequential.
  const result = new Float32Array(width * height);
  const columnSums = new Float64Array(width);
  for (let y = 0; y <= Math.min(radius, height - 1); y += 1) {
    for (let x = 0; x < width; x += 1) columnSums[x] += horizontal[y * width + x];
  }
  for (let y = 0; y < height; y += 1) {
    const count = Math.min(height - 1, y + radius) - Math.max(0, y - radius) + 1;
    const row = y * width;
    for (let x = 0; x < width; x += 1) result[row + x] = columnSums[x] / count;
    if (y + radius + 1 < height) {
      const entering = (y + radius + 1) * width;
      for (let x = 0; x < width; x += 1) columnSums[x] += horizontal[entering + x];
    }
    if (y - radius >= 0) {
      const leaving = (y - radius) * width;
      for (let x = 0; x < width; x += 1) columnSums[x] -= horizontal[leaving + x];
    }
  }
  return result;
}
