// Zips in the browser with fflate: a dropped zip is read into its image files, and the resized batch is zipped
// before upload (stored, not deflated: JPEG bytes do not compress).
import { unzipSync, zipSync, type Zippable } from 'fflate';
import { CORRUPT_ZIP_MESSAGE, EMPTY_ZIP_MESSAGE, entryBaseName, imageTypeOf, isZipImageEntry } from './files';

/** A message for the seller about a file they chose (shown as is). */
export class BatchInputError extends Error {}

async function bytesOf(blob: Blob): Promise<Uint8Array> {
  return new Uint8Array(await blob.arrayBuffer());
}

/** The images a zip holds, named after their entries (folders dropped); only entries that count are inflated. */
export async function readZipImages(zip: Blob): Promise<File[]> {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(await bytesOf(zip), { filter: (entry) => isZipImageEntry(entry.name) });
  } catch {
    throw new BatchInputError(CORRUPT_ZIP_MESSAGE);
  }
  const images = Object.entries(entries).map(([path, data]) => {
    const name = entryBaseName(path);
    return new File([data as Uint8Array<ArrayBuffer>], name, { type: imageTypeOf(name) });
  });
  if (images.length === 0) throw new BatchInputError(EMPTY_ZIP_MESSAGE);
  return images;
}

/** One zip of the named files, flat. */
export async function zipFiles(files: readonly { name: string; data: Blob }[]): Promise<Blob> {
  const contents: Zippable = {};
  for (const { name, data } of files) contents[name] = [await bytesOf(data), { level: 0 }];
  return new Blob([zipSync(contents) as Uint8Array<ArrayBuffer>], { type: 'application/zip' });
}
