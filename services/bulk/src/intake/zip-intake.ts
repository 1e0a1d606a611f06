import type yauzl from 'yauzl';
import { limits } from '@productgen/contracts';
import { checkImageHeader } from '@productgen/image-checks';
import { AppError, type ObjectStore } from '@productgen/service-kit';
import {
  classifyEntry,
  ENCRYPTED_ENTRY_MESSAGE,
  entryTooLargeMessage,
  hasOverlappingEntries,
  isSuspiciousRatio,
  NO_IMAGES_MESSAGE,
  OVERLAPPING_ENTRIES_MESSAGE,
  tooManyEntriesMessage,
  tooManyImagesMessage,
  totalTooLargeMessage,
  uniqueNames,
  zipBombMessage,
} from '../domain/zip-rules';
import { StoredZip } from './stored-zip';

export interface ZipLimits {
  maxEntries: number;
  maxImageBytes: number;
  maxTotalImageBytes: number;
  maxCompressionRatio: number;
  maxPixels: number;
}

/** One image of the zip: its entry's position in the central directory and its product name (made unique). */
export interface ZipImage {
  entryIndex: number;
  name: string;
}

/** Reads one image entry with the per-image cap (declared size and actual bytes). */
export function readImage(zip: StoredZip, entry: yauzl.Entry, name: string, maxImageBytes: number): Promise<Buffer> {
  const tooLarge = () => AppError.payloadTooLarge(entryTooLargeMessage(name, maxImageBytes));
  return zip.readEntry(entry, Math.min(entry.uncompressedSize, maxImageBytes), tooLarge);
}

/** The same check as a single upload's, with the file's name in front of the reason. */
async function checkImage(bytes: Buffer, name: string, limits: ZipLimits): Promise<void> {
  try {
    await checkImageHeader(bytes, { maxBytes: limits.maxImageBytes, maxPixels: limits.maxPixels });
  } catch (error) {
    if (error instanceof AppError) throw new AppError(error.status, `${name}: ${error.message}`);
    throw error;
  }
}

/**
 * The intake of a stored batch zip (SPEC §5 and the OWASP checks), all before anything is stored or charged:
 * 1. the entry count, from the end record, before any entry is read;
 * 2. the central directory: names (yauzl refuses names escaping the folder), which entries count, encryption,
 *    declared sizes, compression ratio, entries sharing bytes, the image count;
 * 3. each image's bytes, counted while streaming (a size other than declared fails), then its type by magic bytes
 *    and its pixel count from the header, as for a single upload.
 */
export async function inspectZip(store: ObjectStore, key: string, zipLimits: ZipLimits): Promise<ZipImage[]> {
  const zip = await StoredZip.open(store, key);
  try {
    if (zip.declaredEntryCount > zipLimits.maxEntries) {
      throw AppError.payloadTooLarge(tooManyEntriesMessage(zip.declaredEntryCount, zipLimits.maxEntries));
    }
    const entries = await zip.listEntries();
    if (
      hasOverlappingEntries(
        entries.map((entry) => ({
          offset: entry.relativeOffsetOfLocalHeader,
          nameLength: entry.fileNameLength,
          compressedSize: entry.compressedSize,
        })),
      )
    ) {
      throw AppError.badRequest(OVERLAPPING_ENTRIES_MESSAGE);
    }

    const images: Array<{ entryIndex: number; entry: yauzl.Entry; name: string }> = [];
    let declaredTotal = 0;
    entries.forEach((entry, entryIndex) => {
      const verdict = classifyEntry(entry.fileName);
      if (verdict.kind !== 'image') return;
      if (entry.isEncrypted()) throw AppError.badRequest(ENCRYPTED_ENTRY_MESSAGE);
      if (entry.uncompressedSize > zipLimits.maxImageBytes) {
        throw AppError.payloadTooLarge(entryTooLargeMessage(verdict.name, zipLimits.maxImageBytes));
      }
      if (isSuspiciousRatio(entry.compressedSize, entry.uncompressedSize, zipLimits.maxCompressionRatio)) {
        throw AppError.payloadTooLarge(zipBombMessage(verdict.name));
      }
      declaredTotal += entry.uncompressedSize;
      images.push({ entryIndex, entry, name: verdict.name });
    });
    if (declaredTotal > zipLimits.maxTotalImageBytes) {
      throw AppError.payloadTooLarge(totalTooLargeMessage(zipLimits.maxTotalImageBytes));
    }
    if (images.length === 0) throw AppError.badRequest(NO_IMAGES_MESSAGE);
    if (images.length > limits.maxBatchImages) throw AppError.badRequest(tooManyImagesMessage(images.length));

    for (const image of images) {
      const bytes = await readImage(zip, image.entry, image.name, zipLimits.maxImageBytes);
      await checkImage(bytes, image.name, zipLimits);
    }
    const names = uniqueNames(images.map((image) => image.name));
    return images.map((image, position) => ({ entryIndex: image.entryIndex, name: names[position]! }));
  } finally {
    zip.close();
  }
}
