import sharp from 'sharp';
import { overlayRuns, type Overlay } from './canvas';
import type { RgbImage } from './decode';
import { asBuffer, pixelThread } from './pixel-thread';
import { sharpenRgba, type SharpenCurve } from './sharpen';
import { addFinerDetail } from './upscale';

const watermarkCache = new Map<string, Promise<Overlay>>();

function watermarkSvg(size: number, text: string): string {
  const fontSize = Math.round(size * 0.045);
  const step = Math.round(size * 0.32);
  const marks: string[] = [];
  for (let y = -step; y < size + step; y += step) {
    for (let x = -step; x < size + step; x += step) {
      const shift = (Math.round(y / step) % 2) * (step / 2);
      marks.push(
        `<text x="${x + shift}" y="${y}" transform="rotate(-30 ${x + shift} ${y})">${text}</text>` +
          // A drawn mark beside the name, so the watermark shows even where no font is installed.
          `<rect x="${x + shift - fontSize * 1.3}" y="${y - fontSize * 0.8}" width="${fontSize * 0.9}" height="${fontSize * 0.9}" rx="${fontSize * 0.2}" transform="rotate(-30 ${x + shift} ${y})"/>`,
      );
    }
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">` +
    `<g font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-weight="700" font-size="${fontSize}" ` +
    `fill="#ffffff" fill-opacity="0.34" stroke="#000000" stroke-opacity="0.16" stroke-width="${Math.max(1, fontSize / 28)}">` +
    `${marks.join('')}</g></svg>`
  );
}

/**
 * The free tier's watermark for a square canvas (straight RGBA and its visible stretches), rendered once per size
 * and text into shared memory: every image's compose on the pixel thread reads the same bytes, nothing is copied
 * per image.
 */
export function watermarkOverlay(size: number, text: string): Promise<Overlay> {
  const key = `${size}:${text}`;
  let overlay = watermarkCache.get(key);
  if (!overlay) {
    const escaped = text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
    overlay = sharp(Buffer.from(watermarkSvg(size, escaped)))
      .ensureAlpha()
      .raw()
      .toBuffer()
      .then((pixels) => {
        const rgba = new Uint8Array(new SharedArrayBuffer(pixels.length));
        rgba.set(pixels);
        const found = overlayRuns(rgba);
        const runs = new Int32Array(new SharedArrayBuffer(found.byteLength));
        runs.set(found);
        return { rgba, runs };
      });
    overlay.catch(() => watermarkCache.delete(key));
    watermarkCache.set(key, overlay);
  }
  return overlay;
}

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
const PRODUCT_SHARPEN: SharpenCurve = { sigma: 0.9, flat: 0.6, jagged: 1.6, threshold: 2, brighten: 8, darken: 14 };

/**
 * Mild unsharp mask for the upscaled product, with its alpha joined on: straight RGBA. The same sharpen as sharp's
 * `.sharpen({ sigma: 0.9, m1: 0.6, m2: 1.6, x1: 2, y2: 8, y3: 14 })` within one level per channel, on the pixel
 * thread (`sharpenRgba`): libvips' version spent most of its ~400–600 ms converting the image to LAB and back.
 */
export async function sharpenWithAlpha(rgb: Buffer, alpha: Buffer, width: number, height: number): Promise<Buffer> {
  return asBuffer(await pixelThread.run('sharpenRgba', [rgb, alpha, width, height, PRODUCT_SHARPEN]));
}

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
