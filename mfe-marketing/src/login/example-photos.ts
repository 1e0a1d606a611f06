export interface ExamplePhoto {
  /** Path inside this app's dist, e.g. "examples/mug.jpg". */
  file: string;
  product: string;
  credit: string;
}

// Filled in at build time by DefinePlugin (see build/demo-photos.js); absent in tests.
declare const __DEMO_PHOTOS__: ExamplePhoto[] | undefined;
// webpack's public path of this app at run time (the folder its remoteEntry was loaded from).
declare const __webpack_public_path__: string | undefined;

export const EXAMPLE_PHOTOS: readonly ExamplePhoto[] = typeof __DEMO_PHOTOS__ !== 'undefined' ? __DEMO_PHOTOS__ : [];

/** Where this app's files are served from (its versioned folder), so images load under the shell too. */
export function assetUrl(file: string): string {
  const base = typeof __webpack_public_path__ === 'string' ? __webpack_public_path__ : '/';
  return `${base}${file}`;
}

export function pickRandom<T>(items: readonly T[], random: () => number = Math.random): T | null {
  if (items.length === 0) return null;
  return items[Math.floor(random() * items.length)] ?? null;
}
