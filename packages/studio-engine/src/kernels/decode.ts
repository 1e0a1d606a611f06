import sharp from 'sharp';

/** Interleaved 8-bit RGB pixels. */
export interface RgbImage {
  data: Buffer;
  width: number;
  height: number;
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
