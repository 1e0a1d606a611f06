/** SPEC §9 resizer constants. */
export const DEFAULT_MAX_DIMENSION = 1024;
export const MIN_DIMENSION = 1;
export const MAX_DIMENSION = 4096;
export const JPEG_QUALITY = 0.9;
/** Up to this many files download one by one; more go into one zip. */
export const MAX_SINGLE_DOWNLOADS = 3;
export const ZIP_NAME = 'resized_images.zip';

/** The input's attributes are only hints (SPEC §5): the value used is an integer forced into 1…4096. */
export function clampMaxDimension(value: number): number {
  if (!Number.isFinite(value)) return DEFAULT_MAX_DIMENSION;
  return Math.min(MAX_DIMENSION, Math.max(MIN_DIMENSION, Math.round(value)));
}

/** The size that fits within `maxDimension` on the long side, keeping the aspect ratio (never below 1 px). */
export function fitWithin(width: number, height: number, maxDimension: number): { width: number; height: number } {
  const scale = maxDimension / Math.max(width, height);
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

/** Like fitWithin, but never enlarges (the remover, upscaler and eraser caps). */
export function capLongSide(width: number, height: number, cap: number): { width: number; height: number } {
  return Math.max(width, height) <= cap ? { width, height } : fitWithin(width, height, cap);
}

/** "holiday.photo.png" → "holiday.photo". */
export function baseNameOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(0, dot) : fileName;
}

export type Naming = { kind: 'original' } | { kind: 'custom'; baseName: string };

/**
 * Output file names (JPEG): the original's base name, or the custom base name with _1, _2 … in upload order.
 * Names that would repeat (two "photo.png" and "photo.jpg") get -1, -2 … so a zip keeps every file.
 */
export function outputNames(fileNames: string[], naming: Naming): string[] {
  const used = new Set<string>();
  return fileNames.map((fileName, index) => {
    const custom = naming.kind === 'custom' ? naming.baseName.trim() : '';
    const base = custom ? `${custom}_${index + 1}` : baseNameOf(fileName);
    let name = `${base}.jpg`;
    for (let suffix = 1; used.has(name); suffix += 1) name = `${base}-${suffix}.jpg`;
    used.add(name);
    return name;
  });
}
