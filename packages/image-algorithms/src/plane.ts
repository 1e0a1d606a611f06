/** A single-channel float image, row-major. */
export interface FloatPlane {
  data: Float32Array;
  width: number;
  height: number;
}

export function plane(width: number, height: number, fill = 0): FloatPlane {
  const data = new Float32Array(width * height);
  if (fill !== 0) data.fill(fill);
  return { data, width, height };
}
