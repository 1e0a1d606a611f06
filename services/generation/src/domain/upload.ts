import sharp from 'sharp';
import { checkImageHeader, imageContentTypes, UNREADABLE_IMAGE_MESSAGE } from '@productgen/image-checks';
import { AppError } from '@productgen/service-kit';

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

/**
 * Checks an upload before anything is stored: size cap, type by magic bytes, pixel cap from the header (a
 * 30000×30000 picture is refused without being decoded), then a full decode that fails on truncation. The
 * answer is upright (EXIF orientation applied), sRGB and without metadata (location, camera serials).
 */
export async function normalizeUpload(bytes: Buffer, limits: UploadLimits): Promise<NormalizedImage> {
  const { type, hasAlpha } = await checkImageHeader(bytes, limits);
  const keepAlpha = type !== 'jpeg' && hasAlpha;
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
