import sharp from 'sharp';
import type { RgbImage } from './decode';
import { sharpenRgba, type SharpenCurve } from './sharpen';
import { addFinerDetail } from './tiles';
import { asBuffer } from '../threads/shared-memory';

/*
 * The product's detail at the size its layouts need (pixel thread): the upscaler's output held to the photo, or the
 * photo enlarged; the sharpen; the alpha; and the one JPEG encode of an image.
 */

/**
 * The upscaler's output held to the photo: everything the photo itself resolves comes from the photo (its crop
 * enlarged by lanczos3), the model adds only the detail finer than one photo pixel. Real-ESRGAN gets the crop
 * reduced to what the layout needs, and on its own it redraws whatever that reduction lost, print included: on
 * the test bottle's printed scale its output, scaled back, kept an edge correlation of only 0.84 with the photo.
 * Low and high frequencies are split by one Gaussian of a third of a photo pixel (in output pixels): the photo
 * keeps ~85% of its contrast at half its resolution limit, the model's own texture comes in above it.
 */
export async function keepPhotoStructure(
  upscaled: RgbImage,
  photo: { rgba: Buffer; width: number; height: number },
): Promise<RgbImage> {
  const { width, height } = upscaled;
  const sigma = Math.max(0.4, width / photo.width / 3);
  const [photoLow, modelLow] = await Promise.all([
    sharp(photo.rgba, { raw: { width: photo.width, height: photo.height, channels: 4 } })
      .removeAlpha()
      .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
      .blur(sigma)
      .raw()
      .toBuffer(),
    sharp(upscaled.data, { raw: { width, height, channels: 3 } })
      .blur(sigma)
      .raw()
      .toBuffer(),
  ]);
  return { data: asBuffer(addFinerDetail(photoLow, upscaled.data, modelLow)), width, height };
}

/** The mild sharpen of the upscaled product: crisp edges without halos (libvips' parameters, in L* units). */
export const PRODUCT_SHARPEN: SharpenCurve = {
  sigma: 0.9,
  flat: 0.6,
  jagged: 1.6,
  threshold: 2,
  brighten: 8,
  darken: 14,
};

/** Straight RGBA pixels (a cut-out's are shared memory when they come from `cutoutFromMatte`). */
export interface RgbaImage {
  rgba: Uint8Array;
  width: number;
  height: number;
}

/**
 * The alpha channel of straight RGBA pixels as one 8-bit plane (libvips does the de-interleaving). The extracted
 * band is already the bytes wanted: a 'b-w' colourspace conversion on top cost ~10× the extraction at 1784².
 */
export function alphaChannel(rgba: Buffer, width: number, height: number): Promise<Buffer> {
  return sharp(rgba, { raw: { width, height, channels: 4 } })
    .extractChannel(3)
    .raw()
    .toBuffer();
}

/**
 * The product brought to the size its layouts need, sharpened, its alpha the full-resolution cut-out's (pixel
 * thread: the ~60 MB of buffers a product's detail makes on the way never reach the main thread's V8 heap, and
 * nothing is copied across). `model` is Real-ESRGAN's output, held to the photo here (`keepPhotoStructure`); without
 * it the crop is enlarged `enlargement` times by lanczos3. The answer is straight RGBA in shared memory.
 */
export async function detailProduct(product: RgbaImage, enlargement: number, model?: RgbImage): Promise<RgbaImage> {
  const photo = { rgba: asBuffer(product.rgba), width: product.width, height: product.height };
  const detailed = model
    ? await keepPhotoStructure({ ...model, data: asBuffer(model.data) }, photo)
    : await resizedRgb(photo, enlargement);
  // The alpha resized on its own (inside the RGBA pipeline libvips would resize all four bands before extracting one:
  // ~3.5× the CPU), then joined on by the sharpen.
  const alpha = await sharp(await alphaChannel(photo.rgba, photo.width, photo.height), {
    raw: { width: photo.width, height: photo.height, channels: 1 },
  })
    .resize(detailed.width, detailed.height, { fit: 'fill', kernel: 'cubic' })
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  const rgba = sharpenRgba(detailed.data, alpha, detailed.width, detailed.height, PRODUCT_SHARPEN);
  return { rgba, width: detailed.width, height: detailed.height };
}

/** The crop's RGB enlarged `factor` times by lanczos3 (what the photo has is enough: no model). */
async function resizedRgb(photo: { rgba: Buffer; width: number; height: number }, factor: number): Promise<RgbImage> {
  const width = Math.max(1, Math.round(photo.width * factor));
  const height = Math.max(1, Math.round(photo.height * factor));
  const data = await sharp(photo.rgba, { raw: { width: photo.width, height: photo.height, channels: 4 } })
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .removeAlpha()
    .raw()
    .toBuffer();
  return { data, width, height };
}

/**
 * The one encode of an image. 4:4:4 keeps the colour of small print on the product sharp; no mozjpeg trellis and
 * no Huffman-table optimisation: at 2048² those cost ~60 ms instead of ~17 ms for a file ~8% smaller.
 */
export async function encodeJpeg(rgb: Buffer, width: number, height: number, quality = 90): Promise<Buffer> {
  return sharp(rgb, { raw: { width, height, channels: 3 } })
    .jpeg({ quality, chromaSubsampling: '4:4:4', optimiseCoding: false })
    .toBuffer();
}
