/** 32-bit FNV-1a hash of a text: the seed of everything that must repeat for the same input. */
export function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The seeded generator lives with the pixel algorithms, which the browser tools share. */
export { seededRandom } from '@productgen/image-algorithms';

export function pick<T>(items: readonly T[], random: () => number): T {
  const item = items[Math.floor(random() * items.length) % items.length];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}
