import type { RgbaImage } from '../inference/tensors';

/** Decodes an image file (EXIF orientation applied). */
export function decodeImage(file: Blob): Promise<ImageBitmap> {
  return createImageBitmap(file, { imageOrientation: 'from-image' });
}

export function makeCanvas(width: number, height: number): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return canvas;
}

function context2d(canvas: HTMLCanvasElement): CanvasRenderingContext2D {
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error('This browser cannot draw images (no 2D canvas).');
  return context;
}

/** The image's pixels at the given size (the browser's high-quality smoothing when scaled). */
export function pixelsOf(source: CanvasImageSource, width: number, height: number): RgbaImage {
  const canvas = makeCanvas(width, height);
  const context = context2d(canvas);
  context.imageSmoothingQuality = 'high';
  context.drawImage(source, 0, 0, width, height);
  return { data: context.getImageData(0, 0, width, height).data, width, height };
}

export function canvasOf(image: RgbaImage): HTMLCanvasElement {
  const canvas = makeCanvas(image.width, image.height);
  context2d(canvas).putImageData(new ImageData(new Uint8ClampedArray(image.data), image.width, image.height), 0, 0);
  return canvas;
}

export function canvasToBlob(
  canvas: HTMLCanvasElement,
  type: 'image/png' | 'image/jpeg',
  quality?: number,
): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('The image could not be encoded.'))),
      type,
      quality,
    ),
  );
}

export function encodePixels(image: RgbaImage, type: 'image/png' | 'image/jpeg', quality?: number): Promise<Blob> {
  return canvasToBlob(canvasOf(image), type, quality);
}

/** Saves a file the way a link with `download` does. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click is handled; keep the URL a moment for slow browsers.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
