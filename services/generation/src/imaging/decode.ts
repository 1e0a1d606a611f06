import sharp from 'sharp';
import { AppError } from '@productgen/service-kit';

export type ImageType = 'jpeg' | 'png' | 'webp';

export const imageContentTypes: Record<ImageType, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

/** Interleaved 8-bit RGB pixels. */
export interface RgbImage {
  data: Buffer;
  width: number;
  height: number;
}

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

export interface UploadLimits {
  maxBytes: number;
  maxPixels: number;
  /** Long side the stored original is reduced to (the pipeline never needs more). */
  maxStoredSide?: number;
}

export interface NormalizedImage {
  buffer: Buffer;
  contentType: string;
  extension: 'jpg' | 'png';
  width: number;
  height: number;
}

export const UNREADABLE_IMAGE_MESSAGE = 'The image could not be read: the file is damaged or incomplete.';
export const UNSUPPORTED_IMAGE_MESSAGE = 'The file is not a supported image (JPEG, PNG or WebP).';

/**
 * Checks an upload before anything is stored: size cap, type by magic bytes, pixel cap from the header (a
 * 30000×30000 picture is refused without being decoded), then a full decode that fails on truncation. The
 * answer is upright (EXIF orientation applied), sRGB and without metadata (location, camera serials).
 */
export async function normalizeUpload(bytes: Buffer, limits: UploadLimits): Promise<NormalizedImage> {
  if (bytes.length === 0) throw AppError.badRequest('The image is empty.');
  if (bytes.length > limits.maxBytes) {
    throw AppError.payloadTooLarge(`The image is too large: at most ${Math.floor(limits.maxBytes / 1048576)} MB.`);
  }
  const type = sniffImageType(bytes);
  if (!type) throw AppError.unsupportedMediaType(UNSUPPORTED_IMAGE_MESSAGE);
  let header: sharp.Metadata;
  try {
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
  const keepAlpha = type !== 'jpeg' && header.hasAlpha === true;
  const maxSide = limits.maxStoredSide ?? 4096;
  try {
    const pipeline = sharp(bytes, { limitInputPixels: limits.maxPixels, failOn: 'warning' })
      .rotate()
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb');
    const { data, info } = keepAlpha
      ? await pipeline.png({ compressionLevel: 6 }).toBuffer({ resolveWithObject: true })
      : await pipeline
          .flatten({ background: '#ffffff' })
          .jpeg({ quality: 92, chromaSubsampling: '4:4:4' })
          .toBuffer({ resolveWithObject: true });
    return {
      buffer: data,
      contentType: keepAlpha ? imageContentTypes.png : imageContentTypes.jpeg,
      extension: keepAlpha ? 'png' : 'jpg',
      width: info.width,
      height: info.height,
    };
  } catch {
    throw AppError.badRequest(UNREADABLE_IMAGE_MESSAGE);
  }
}

/** Decodes a stored original to RGB for the pipeline, reduced so its long side is at most `maxSide`. */
export async function decodeRgb(bytes: Buffer, maxSide: number): Promise<RgbImage> {
  const { data, info } = await sharp(bytes, { failOn: 'none' })
    .rotate()
    .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
