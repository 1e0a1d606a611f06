import { labelRegions } from '@productgen/image-algorithms';

/**
 * Keeps the largest region (8-connected) and every region at least `minFraction` of its size (a product with a
 * detached part, e.g. a lid beside a jar); specks the model marked in the background go.
 */
export function keepLargestComponents(
  mask: Uint8Array,
  width: number,
  height: number,
  minFraction: number,
): Uint8Array {
  const { labels, sizes } = labelRegions(mask, width, 8);
  const largest = Math.max(0, ...sizes);
  const kept = new Uint8Array(width * height);
  if (largest === 0) return kept;
  for (let i = 0; i < mask.length; i += 1) {
    if (labels[i] >= 0 && sizes[labels[i]] >= largest * minFraction) kept[i] = 1;
  }
  return kept;
}
