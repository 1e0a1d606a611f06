/**
 * Connected regions of a binary mask (1 = set), 8-connected, labelled by a flood fill with an explicit stack.
 * Returns the label of every pixel (0 = unset, 1… = region) and each region's pixel count (index = label).
 */
export function labelComponents(
  mask: Uint8Array,
  width: number,
  height: number,
): { labels: Int32Array; sizes: number[] } {
  const labels = new Int32Array(width * height);
  const sizes = [0];
  const stack = new Int32Array(width * height);
  for (let start = 0; start < mask.length; start += 1) {
    if (!mask[start] || labels[start]) continue;
    const label = sizes.length;
    let top = 0;
    let size = 0;
    stack[top++] = start;
    labels[start] = label;
    while (top > 0) {
      const index = stack[--top];
      size += 1;
      const x = index % width;
      const y = (index - x) / width;
      for (let dy = -1; dy <= 1; dy += 1) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx += 1) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const neighbour = ny * width + nx;
          if (mask[neighbour] && !labels[neighbour]) {
            labels[neighbour] = label;
            stack[top++] = neighbour;
          }
        }
      }
    }
    sizes.push(size);
  }
  return { labels, sizes };
}

/**
 * Keeps the largest region and every region at least `minFraction` of its size (a product with a detached part,
 * e.g. a lid beside a jar); specks the model marked in the background go.
 */
export function keepLargestComponents(
  mask: Uint8Array,
  width: number,
  height: number,
  minFraction: number,
): Uint8Array {
  const { labels, sizes } = labelComponents(mask, width, height);
  const largest = Math.max(0, ...sizes.slice(1));
  const kept = new Uint8Array(mask.length);
  if (largest === 0) return kept;
  for (let i = 0; i < mask.length; i += 1) {
    if (labels[i] && sizes[labels[i]] >= largest * minFraction) kept[i] = 1;
  }
  return kept;
}

/** Sets every unset region that does not touch the image border (a hole inside the product). */
export function fillHoles(mask: Uint8Array, width: number, height: number): Uint8Array {
  const inverse = new Uint8Array(mask.length);
  for (let i = 0; i < mask.length; i += 1) inverse[i] = mask[i] ? 0 : 1;
  const { labels, sizes } = labelComponents(inverse, width, height);
  const touchesBorder = new Uint8Array(sizes.length);
  for (let x = 0; x < width; x += 1) {
    touchesBorder[labels[x]] = 1;
    touchesBorder[labels[(height - 1) * width + x]] = 1;
  }
  for (let y = 0; y < height; y += 1) {
    touchesBorder[labels[y * width]] = 1;
    touchesBorder[labels[y * width + width - 1]] = 1;
  }
  const filled = new Uint8Array(mask);
  for (let i = 0; i < mask.length; i += 1) if (labels[i] && !touchesBorder[labels[i]]) filled[i] = 1;
  return filled;
}

/** Sets every pixel within `radius` (a square window) of a set pixel: two separable max passes. */
export function dilate(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  if (radius <= 0) return new Uint8Array(mask);
  const horizontal = new Uint8Array(mask.length);
  for (let y = 0; y < height; y += 1) {
    let lastSet = -Infinity;
    const row = y * width;
    // Forward pass remembers the last set pixel on the left, backward pass the next one on the right.
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
