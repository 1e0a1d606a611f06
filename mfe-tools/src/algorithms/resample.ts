/** Bilinear resampling of a single-channel float image (pixel centres aligned, edges clamped). */
export function resizeBilinear(
  source: Float32Array,
  sourceWidth: number,
  sourceHeight: number,
  width: number,
  height: number,
): Float32Array {
  const output = new Float32Array(width * height);
  const scaleX = sourceWidth / width;
  const scaleY = sourceHeight / height;
  for (let y = 0; y < height; y += 1) {
    const sy = Math.min(Math.max((y + 0.5) * scaleY - 0.5, 0), sourceHeight - 1);
    const y0 = Math.floor(sy);
    const y1 = Math.min(y0 + 1, sourceHeight - 1);
    const fy = sy - y0;
    for (let x = 0; x < width; x += 1) {
      const sx = Math.min(Math.max((x + 0.5) * scaleX - 0.5, 0), sourceWidth - 1);
      const x0 = Math.floor(sx);
      const x1 = Math.min(x0 + 1, sourceWidth - 1);
      const fx = sx - x0;
      const top = source[y0 * sourceWidth + x0] * (1 - fx) + source[y0 * sourceWidth + x1] * fx;
      const bottom = source[y1 * sourceWidth + x0] * (1 - fx) + source[y1 * sourceWidth + x1] * fx;
      output[y * width + x] = top * (1 - fy) + bottom * fy;
    }
  }
  return output;
}
