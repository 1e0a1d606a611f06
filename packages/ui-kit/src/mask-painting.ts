/*
 * The pure part of the mask brush: a mask is one byte per pixel (255 keeps the pixel, 0 removes it), painted with
 * round strokes. No canvas here, so it runs (and is tested) anywhere.
 */

/** A mask over a picture: `data[y * width + x]` from 0 (removed) to 255 (kept). */
export interface Mask {
  data: Uint8Array;
  width: number;
  height: number;
}

export interface Point {
  x: number;
  y: number;
}

/** The rectangle a stroke changed, in mask pixels (right and bottom exclusive). */
export interface DirtyRect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * Paints a round-capped line from `from` to `to` with `radius` (mask pixels), setting every pixel within the radius
 * of the segment to `value`. A click is a segment of length 0: a dot. Answers the rectangle that may have changed,
 * or null when the stroke lies outside the mask.
 */
export function paintSegment(mask: Mask, from: Point, to: Point, radius: number, value: number): DirtyRect | null {
  const left = Math.max(0, Math.floor(Math.min(from.x, to.x) - radius));
  const top = Math.max(0, Math.floor(Math.min(from.y, to.y) - radius));
  const right = Math.min(mask.width, Math.ceil(Math.max(from.x, to.x) + radius) + 1);
  const bottom = Math.min(mask.height, Math.ceil(Math.max(from.y, to.y) + radius) + 1);
  if (left >= right || top >= bottom) return null;
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const lengthSquared = dx * dx + dy * dy;
  const radiusSquared = radius * radius;
  for (let y = top; y < bottom; y += 1) {
    for (let x = left; x < right; x += 1) {
      // Distance from the pixel's centre to the nearest point of the segment.
      const px = x + 0.5 - from.x;
      const py = y + 0.5 - from.y;
      const t = lengthSquared > 0 ? Math.max(0, Math.min(1, (px * dx + py * dy) / lengthSquared)) : 0;
      const ex = px - t * dx;
      const ey = py - t * dy;
      if (ex * ex + ey * ey <= radiusSquared) mask.data[y * mask.width + x] = value;
    }
  }
  return { left, top, right, bottom };
}

export function copyMask(mask: Mask): Mask {
  return { data: mask.data.slice(), width: mask.width, height: mask.height };
}

export function sameMask(a: Mask, b: Mask): boolean {
  if (a.width !== b.width || a.height !== b.height) return false;
  for (let k = 0; k < a.data.length; k += 1) if (a.data[k] !== b.data[k]) return false;
  return true;
}
