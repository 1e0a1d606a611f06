/*
 * Small float-raster helpers for the matte (run on the pixel thread; the shadows are blurred by libvips). The ones
 * the browser tools share (FloatPlane, box mean, bilinear resampling) are in @productgen/image-algorithms.
 */

/** Bounding box of the cells above a threshold, or undefined when there are none. */
export function boundsAbove(
  values: ArrayLike<number>,
  width: number,
  height: number,
  threshold: number,
): { left: number; top: number; right: number; bottom: number } | undefined {
  let left = width;
  let top = height;
  let right = -1;
  let bottom = -1;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      if (values[y * width + x]! > threshold) {
        if (x < left) left = x;
        if (x > right) right = x;
        if (y < top) top = y;
        if (y > bottom) bottom = y;
      }
    }
  }
  return right < 0 ? undefined : { left, top, right: right + 1, bottom: bottom + 1 };
}
