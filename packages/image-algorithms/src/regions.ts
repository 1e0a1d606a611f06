/** A binary mask: 1 where set, row-major. */
export type BinaryMask = Uint8Array;

/** Which neighbours join a region: the 4 sharing a side, or the 8 sharing a side or a corner. */
export type Connectivity = 4 | 8;

/** Connected regions of the set cells: a label per cell (-1 where unset, 0… in scan order) and each region's size. */
export function labelRegions(
  mask: BinaryMask,
  width: number,
  connectivity: Connectivity = 4,
): { labels: Int32Array; sizes: number[] } {
  const labels = new Int32Array(mask.length).fill(-1);
  const sizes: number[] = [];
  const stack: number[] = [];
  let label = 0;
  const reach = (neighbour: number) => {
    if (labels[neighbour] === -1 && mask[neighbour]) {
      labels[neighbour] = label;
      stack.push(neighbour);
    }
  };
  for (let start = 0; start < mask.length; start += 1) {
    if (labels[start] !== -1 || !mask[start]) continue;
    label = sizes.length;
    let size = 0;
    labels[start] = label;
    stack.push(start);
    while (stack.length > 0) {
      const index = stack.pop()!;
      size += 1;
      const x = index % width;
      const up = index >= width;
      const down = index + width < mask.length;
      if (x > 0) reach(index - 1);
      if (x < width - 1) reach(index + 1);
      if (up) reach(index - width);
      if (down) reach(index + width);
      if (connectivity === 8) {
        if (up && x > 0) reach(index - width - 1);
        if (up && x < width - 1) reach(index - width + 1);
        if (down && x > 0) reach(index + width - 1);
        if (down && x < width - 1) reach(index + width + 1);
      }
    }
    sizes.push(size);
  }
  return { labels, sizes };
}

/**
 * The largest hole a cut-out fills, as a share of the product's cells: a smaller one is a segmentation miss inside
 * the product (a label, a reflection); a larger one is a real opening to keep see-through (a bag strap's loop, a mug's
 * handle). The studio's cut-out and the browser's background remover use the same rule.
 */
export const MAX_FILLED_HOLE_SHARE = 0.015;

/**
 * Sets the holes of a mask: unset regions (joined by `connectivity`) that do not reach the frame's border (a mug's
 * handle loop stays open) and are at most `maxHoleShare` of the set cells' count.
 */
export function fillHoles(
  mask: BinaryMask,
  width: number,
  height: number,
  maxHoleShare = 1,
  connectivity: Connectivity = 4,
): BinaryMask {
  const unset = new Uint8Array(mask.length);
  for (let k = 0; k < mask.length; k += 1) unset[k] = mask[k] ? 0 : 1;
  const { labels, sizes } = labelRegions(unset, width, connectivity);
  const open = new Uint8Array(sizes.length);
  const reachesBorder = (index: number) => {
    if (labels[index]! >= 0) open[labels[index]!] = 1;
  };
  for (let x = 0; x < width; x += 1) {
    reachesBorder(x);
    reachesBorder((height - 1) * width + x);
  }
  for (let y = 0; y < height; y += 1) {
    reachesBorder(y * width);
    reachesBorder(y * width + width - 1);
  }
  let setCount = 0;
  for (const value of mask) setCount += value;
  const out = mask.slice();
  for (let k = 0; k < out.length; k += 1) {
    const label = labels[k]!;
    if (label >= 0 && !open[label] && sizes[label]! <= maxHoleShare * setCount) out[k] = 1;
  }
  return out;
}

/** Sets every cell within `radius` (a square window) of a set cell: two separable passes, any radius at one cost. */
export function dilate(mask: BinaryMask, width: number, height: number, radius: number): BinaryMask {
  if (radius <= 0) return new Uint8Array(mask);
  const horizontal = new Uint8Array(mask.length);
  for (let y = 0; y < height; y += 1) {
    let lastSet = -Infinity;
    const row = y * width;
    // Forward pass remembers the last set cell on the left, backward pass the next one on the right.
    for (let x = 0; x < width; x += 1) {
      if (mask[row + x]) lastSet = x;
      if (x - lastSet <= radius) horizontal[row + x] = 1;
    }
    let nextSet = Infinity;
    for (let x = width - 1; x >= 0; x -= 1) {
      if (mask[row + x]) nextSet = x;
      if (nextSet - x <= radius) horizontal[row + x] = 1;
    }
  }
  const result = new Uint8Array(mask.length);
  for (let x = 0; x < width; x += 1) {
    let lastSet = -Infinity;
    for (let y = 0; y < height; y += 1) {
      if (horizontal[y * width + x]) lastSet = y;
      if (y - lastSet <= radius) result[y * width + x] = 1;
    }
    let nextSet = Infinity;
    for (let y = height - 1; y >= 0; y -= 1) {
      if (horizontal[y * width + x]) nextSet = y;
      if (nextSet - y <= radius) result[y * width + x] = 1;
    }
  }
  return result;
}

/** Clears every cell within `radius` of an unset cell (the set cells whose whole window is set). */
export function erode(mask: BinaryMask, width: number, height: number, radius: number): BinaryMask {
  const unset = mask.map((value) => (value ? 0 : 1));
  return dilate(unset, width, height, radius).map((value) => (value ? 0 : 1));
}
