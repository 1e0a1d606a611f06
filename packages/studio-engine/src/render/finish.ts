import sharp from 'sharp';
import { overlayRuns, type Overlay } from '../kernels/canvas';
import { PRODUCT_SHARPEN } from '../kernels/detail';
import { pixelThread } from '../threads/pixel-thread';
import { asBuffer } from '../threads/shared-memory';

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
 * Mild unsharp mask for the upscaled product, with its alpha joined on: straight RGBA. The same sharpen as sharp's
 * `.sharpen({ sigma: 0.9, m1: 0.6, m2: 1.6, x1: 2, y2: 8, y3: 14 })` within one level per channel, on the pixel
 * thread (`sharpenRgba`): libvips' version spent most of its ~400–600 ms converting the image to LAB and back.
 */
export async function sharpenWithAlpha(rgb: Buffer, alpha: Buffer, width: number, height: number): Promise<Buffer> {
  return asBuffer(await pixelThread.run('sharpenRgba', [rgb, alpha, width, height, PRODUCT_SHARPEN]));
}
