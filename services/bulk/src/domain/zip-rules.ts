import { limits } from '@productgen/contracts';

/*
 * What counts inside a batch zip (SPEC §5) and the defences against hostile archives (OWASP file upload and zip
 * bomb guidance): pure rules over the central directory, so they are decided before a single byte is extracted.
 */

export const ZIP_UNREADABLE_MESSAGE = 'Failed to read the zip file. It might be corrupted.';
export const NO_IMAGES_MESSAGE =
  'The zip file holds no images. Add .jpg, .jpeg, .png or .webp photos to it and try again.';
export const ENCRYPTED_ENTRY_MESSAGE =
  'The zip file is protected with a password. Please upload a zip without a password.';
export const OVERLAPPING_ENTRIES_MESSAGE =
  'The zip file is malformed: its files overlap each other (a zip bomb). Please zip your photos again.';

export function tooManyImagesMessage(count: number): string {
  return `The zip file holds ${count} images; a batch takes at most ${limits.maxBatchImages}.`;
}

export function tooManyEntriesMessage(count: number, max: number): string {
  return `The zip file lists ${count} files; at most ${max} are accepted.`;
}

export function unsafeNameMessage(name: string): string {
  return `The zip file holds a file with an unsafe name (${name}). Please zip your photos again.`;
}

export function entryTooLargeMessage(name: string, maxBytes: number): string {
  return `${name} is too large: at most ${Math.floor(maxBytes / 1048576)} MB per image.`;
}

export function zipBombMessage(name: string): string {
  return `${name} unpacks to far more than its packed size (a zip bomb). Please zip your photos again.`;
}

export function totalTooLargeMessage(maxBytes: number): string {
  return `The photos in the zip file are too large together: at most ${Math.floor(maxBytes / 1048576)} MB.`;
}

export function zipTooLargeMessage(maxBytes: number): string {
  return `The zip file is too large: at most ${Math.floor(maxBytes / 1048576)} MB.`;
}

const IMAGE_EXTENSIONS = new Set(['.jpg', '.jpeg', '.png', '.webp']);
const IGNORED_FILES = new Set(['thumbs.db', '.ds_store', 'desktop.ini']);

export type EntryVerdict = { kind: 'image'; name: string } | { kind: 'ignored' };

function baseName(path: string): string {
  const parts = path.split('/');
  return parts[parts.length - 1] ?? '';
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

/**
 * Which entries count: .jpg, .jpeg, .png and .webp files. Folders, `__MACOSX` resource forks, Thumbs.db and the
 * like, nested zips and anything else are ignored. The product's name is the file's own name (folders dropped).
 */
export function classifyEntry(path: string): EntryVerdict {
  if (path.endsWith('/')) return { kind: 'ignored' };
  const segments = path.split('/');
  if (segments.some((segment) => segment === '__MACOSX')) return { kind: 'ignored' };
  const name = baseName(path);
  if (name === '' || IGNORED_FILES.has(name.toLowerCase()) || name.startsWith('._')) return { kind: 'ignored' };
  if (!IMAGE_EXTENSIONS.has(extensionOf(name))) return { kind: 'ignored' };
  return { kind: 'image', name };
}

/**
 * Duplicate names made unique by adding -1, -2 and so on before the extension (SPEC §5), compared without regard to
 * case so that no two products share a folder on any file system.
 */
export function uniqueNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const dot = name.lastIndexOf('.');
    const stem = dot > 0 ? name.slice(0, dot) : name;
    const extension = dot > 0 ? name.slice(dot) : '';
    let candidate = name;
    for (let counter = 1; taken.has(candidate.toLowerCase()); counter += 1)
      candidate = `${stem}-${counter}${extension}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

/** Where an entry's bytes lie in the archive, as the central directory declares them. */
export interface EntryLayout {
  /** Offset of the entry's local header. */
  offset: number;
  /** Length of the entry's name (the local header repeats it). */
  nameLength: number;
  compressedSize: number;
}

/** Fixed part of a local file header (APPNOTE 4.3.7). */
const LOCAL_HEADER_BYTES = 30;

/**
 * True when two entries share bytes. In a well-formed zip every entry's header and data come after the previous
 * one's; overlapping entries are how the non-recursive zip bombs reuse one compressed kernel thousands of times.
 */
export function hasOverlappingEntries(entries: readonly EntryLayout[]): boolean {
  const sorted = [...entries].sort((a, b) => a.offset - b.offset);
  for (let index = 1; index < sorted.length; index += 1) {
    const previous = sorted[index - 1]!;
    const end = previous.offset + LOCAL_HEADER_BYTES + previous.nameLength + previous.compressedSize;
    if (sorted[index]!.offset < end) return true;
  }
  return false;
}

/** Ratio above which an image entry is taken for a bomb; tiny entries are exempt (headers compress well). */
export function isSuspiciousRatio(compressedSize: number, uncompressedSize: number, maxRatio: number): boolean {
  if (uncompressedSize <= 64 * 1024) return false;
  return uncompressedSize > Math.max(compressedSize, 1) * maxRatio;
}

/** Folder names of the download: the product's name without its extension, made safe and unique. */
export function folderNames(productNames: readonly string[]): string[] {
  const stems = productNames.map((name) => {
    const dot = name.lastIndexOf('.');
    const stem = (dot > 0 ? name.slice(0, dot) : name)
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, '_')
      .replace(/^\.+/, '_')
      .trim();
    return stem === '' ? 'product' : stem;
  });
  return uniqueNames(stems);
}
