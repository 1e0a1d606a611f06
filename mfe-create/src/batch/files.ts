// What the batch drop zone accepts and how it names what it keeps (SPEC §5), as pure functions.

export const INVALID_ZIP_MESSAGE = 'Please upload a valid zip file.';
export const CORRUPT_ZIP_MESSAGE = 'Failed to read the zip file. It might be corrupted.';
export const NO_FILES_MESSAGE = 'Please select images or a zip file.';
export const EMPTY_ZIP_MESSAGE = 'This zip file holds no .jpg, .jpeg, .png or .webp images.';

/** `max` is the batch limit in force (GET /configlist's maxBatchImages). */
export function tooManyImagesMessage(max: number, current: number, adding: number): string {
  return `You can upload a maximum of ${max} images. You currently have ${current} and tried to add ${adding}.`;
}

const ZIP_TYPES = new Set(['application/zip', 'application/x-zip-compressed']);

export type DroppedKind = 'image' | 'zip' | 'invalid';

/** SPEC §5: images by a type starting with image/, one zip by its zip type; anything else is refused. */
export function droppedKind(file: Pick<File, 'type'>): DroppedKind {
  if (file.type.startsWith('image/')) return 'image';
  if (ZIP_TYPES.has(file.type)) return 'zip';
  return 'invalid';
}

const IMAGE_TYPES_BY_EXTENSION: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** The file name of a zip entry path, without its folders. */
export function entryBaseName(path: string): string {
  return path.split(/[/\\]/).pop() ?? '';
}

/**
 * SPEC §5: only .jpg, .jpeg, .png and .webp entries count; directories, __MACOSX entries and Thumbs.db are ignored.
 * macOS's "._name.jpg" resource forks are ignored too: they carry an image's name but no image.
 */
export function isZipImageEntry(path: string): boolean {
  if (path.endsWith('/') || path.endsWith('\\')) return false;
  if (path.split(/[/\\]/).includes('__MACOSX')) return false;
  const name = entryBaseName(path);
  if (name.toLowerCase() === 'thumbs.db' || name.startsWith('._')) return false;
  return extensionOf(name) in IMAGE_TYPES_BY_EXTENSION;
}

/** The image type a zip entry's extension names, so the browser decodes its bytes as that image. */
export function imageTypeOf(name: string): string {
  return IMAGE_TYPES_BY_EXTENSION[extensionOf(name)] ?? 'application/octet-stream';
}

/**
 * SPEC §5: a name already taken gets -1, -2... before its extension. Names compare without case, so the products'
 * folders stay apart on every file system the download is unpacked on. `taken` holds lower-cased names.
 */
export function uniqueName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name.toLowerCase())) return name;
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const extension = dot > 0 ? name.slice(dot) : '';
  for (let suffix = 1; ; suffix += 1) {
    const candidate = `${stem}-${suffix}${extension}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

/** Unique names for `names`, in order, against the names already in the batch and each other. */
export function uniqueNames(existing: readonly string[], names: readonly string[]): string[] {
  const taken = new Set(existing.map((name) => name.toLowerCase()));
  return names.map((name) => {
    const unique = uniqueName(name, taken);
    taken.add(unique.toLowerCase());
    return unique;
  });
}
