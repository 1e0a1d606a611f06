import sharp from 'sharp';
import type { FloatPlane } from '@productgen/image-algorithms';
import { boundsAbove } from '../kernels/raster';

/*
 * A stored matte is an 8-bit grayscale PNG at the analysis size (255 = product, 0 = background): the segmenter's
 * matte made at analysis, or the seller's corrected one. The renderer resizes it to whatever size it decodes the
 * photo at.
 */

/** The matte as a grayscale PNG. */
export function encodeMattePng(alpha: FloatPlane): Promise<Buffer> {
  const gray = Buffer.alloc(alpha.width * alpha.height);
  for (let k = 0; k < gray.length; k += 1) gray[k] = Math.round(Math.min(1, Math.max(0, alpha.data[k]!)) * 255);
  return sharp(gray, { raw: { width: alpha.width, height: alpha.height, channels: 1 } })
    .toColourspace('b-w')
    .png({ compressionLevel: 6 })
    .toBuffer();
}

/**
 * The grayscale of any PNG (transparent pixels count as background), as a one-channel PNG: what a seller's mask is
 * stored as, whichever colour type the browser encoded it with.
 */
export async function grayscalePng(png: Buffer): Promise<Buffer> {
  const { data, info } = await sharp(png)
    .flatten({ background: '#000000' })
    .toColourspace('b-w')
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } })
    .toColourspace('b-w')
    .png({ compressionLevel: 6 })
    .toBuffer();
}

/** A stored matte resized to `width`×`height` (the renderer's decode size), alpha 0..1. */
export async function decodeMattePng(png: Buffer, width: number, height: number): Promise<FloatPlane> {
  const gray = await sharp(png)
    .resize(width, height, { fit: 'fill', kernel: 'linear' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  const data = new Float32Array(width * height);
  for (let k = 0; k < data.length; k += 1) data[k] = gray[k]! / 255;
  return { data, width, height };
}

/** The product's box in a stored matte (its pixels above half), with the matte's long side; undefined when empty. */
export async function matteProductBox(
  png: Buffer,
): Promise<{ width: number; height: number; longSide: number } | undefined> {
  const { data, info } = await sharp(png).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  const box = boundsAbove(data, info.width, info.height, 127);
  if (!box) return undefined;
  return { width: box.right - box.left, height: box.bottom - box.top, longSide: Math.max(info.width, info.height) };
}
