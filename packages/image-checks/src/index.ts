import sharp from 'sharp';
import { AppError } from '@productgen/service-kit';

/*
 * The checks every uploaded photo passes before anything is stored, whichever way it arrives (a single base64
 * upload to generation, an entry of a batch zip in bulk): size cap, type by magic bytes, pixel cap read from the
 * header. A picture of 30000×30000 pixels is refused without being decoded (a pixel bomb never reaches memory).
 */

export type ImageType = 'jpeg' | 'png' | 'webp';

export const imageContentTypes: Record<ImageType, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

export const UNREADABLE_IMAGE_MESSAGE = 'The image could not be read: the file is damaged or incomplete.';
export const UNSUPPORTED_IMAGE_MESSAGE = 'The file is not a supported image (JPEG, PNG or WebP).';

/** The type by the file's first bytes; the name or declared type of an upload is never trusted. */
export function sniffImageType(bytes: Uint8Array): ImageType | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && Buffer.from(bytes.subarray(0, 8)).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]))) {
    return 'png';
  }
  if (
    bytes.length >= 12 &&
    Buffer.from(bytes.subarray(0, 4)).toString('latin1') === 'RIFF' &&
    Buffer.from(bytes.subarray(8, 12)).toString('latin1') === 'WEBP'
  ) {
    return 'webp';
  }
  return undefined;
}

export interface ImageLimits {
  /** Largest accepted file. */
  maxBytes: number;
  /** Largest accepted picture (width × height). */
  maxPixels: number;
}

export interface ImageHeader {
  type: ImageType;
  width: number;
  height: number;
  hasAlpha: boolean;
}

/**
 * Checks an upload's bytes without decoding its pixels: empty, too large, not a JPEG/PNG/WebP by its magic bytes,
 * an unreadable header, too many pixels or too small. Each refusal is an AppError with the product's words.
 */
export async function checkImageHeader(bytes: Buffer, limits: ImageLimits): Promise<ImageHeader> {
  if (bytes.length === 0) throw AppError.badRequest('The image is empty.');
  if (bytes.length > limits.maxBytes) {
    throw AppError.payloadTooLarge(`The image is too large: at most ${Math.floor(limits.maxBytes / 1048576)} MB.`);
  }
  const type = sniffImageType(bytes);
  if (!type) throw AppError.unsupportedMediaType(UNSUPPORTED_IMAGE_MESSAGE);
  let header: sharp.Metadata;
  try {
    // Only the header is read here, so the pixel count is known before anything is decoded.
    header = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw AppError.badRequest(UNREADABLE_IMAGE_MESSAGE);
  }
  const width = header.width ?? 0;
  const height = header.height ?? 0;
  if (width < 1 || height < 1) throw AppError.badRequest(UNREADABLE_IMAGE_MESSAGE);
  if (width * height > limits.maxPixels) {
    throw AppError.payloadTooLarge(
      `The image is too large: ${width}×${height} pixels, at most ${Math.round(limits.maxPixels / 1e6)} megapixels.`,
    );
  }
  if (Math.min(width, height) < 32) throw AppError.badRequest('The image is too small: at least 32 pixels a side.');
  return { type, width, height, hasAlpha: header.hasAlpha === true };
}
