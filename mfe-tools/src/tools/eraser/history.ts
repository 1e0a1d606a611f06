/** SPEC §3's eraser version item: an image, what made it, when. */
export interface Version<Image> {
  image: Image;
  description: 'Original' | 'Magic erased';
  timestamp: number;
}

export interface History<Image> {
  versions: Version<Image>[];
  current: number;
}

export function startHistory<Image>(original: Image, now = Date.now()): History<Image> {
  return { versions: [{ image: original, description: 'Original', timestamp: now }], current: 0 };
}

/** A new erase result after the current version; later versions (from an earlier choice) are discarded. */
export function addErased<Image>(history: History<Image>, image: Image, now = Date.now()): History<Image> {
  const versions = [
    ...history.versions.slice(0, history.current + 1),
    { image, description: 'Magic erased' as const, timestamp: now },
  ];
  return { versions, current: versions.length - 1 };
}

export function moveTo<Image>(history: History<Image>, index: number): History<Image> {
  return { ...history, current: Math.min(history.versions.length - 1, Math.max(0, index)) };
}

/** Back to the original only: the erased versions go. */
export function resetToOriginal<Image>(history: History<Image>): History<Image> {
  return { versions: history.versions.slice(0, 1), current: 0 };
}

export function currentVersion<Image>(history: History<Image>): Version<Image> {
  return history.versions[history.current];
}
