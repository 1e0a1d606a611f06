// Client-side upload resize (SPEC §9): fit within 1920×1080, JPEG quality 0.8.

export const MAX_UPLOAD_WIDTH = 1920;
export const MAX_UPLOAD_HEIGHT = 1080;
export const UPLOAD_JPEG_QUALITY = 0.8;

export interface Size {
  width: number;
  height: number;
}

/** The largest size with the same aspect ratio that fits the box; never enlarges a smaller image. */
export function fitWithin(
  { width, height }: Size,
  maxWidth: number = MAX_UPLOAD_WIDTH,
  maxHeight: number = MAX_UPLOAD_HEIGHT,
): Size {
  if (!(width > 0) || !(height > 0)) throw new RangeError(`An image needs a positive size, got ${width}×${height}`);
  const scale = Math.min(1, maxWidth / width, maxHeight / height);
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

export function isImageFile(file: Pick<File, 'type'>): boolean {
  return file.type.startsWith('image/');
}

/** Decodes the photo (EXIF orientation applied) and draws it at the fitted size on a white canvas. */
async function drawFitted(file: Blob): Promise<HTMLCanvasElement> {
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  try {
    const size = fitWithin(bitmap);
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('This browser cannot process images.');
    // JPEG has no transparency: a transparent PNG must not turn black.
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, size.width, size.height);
    context.drawImage(bitmap, 0, 0, size.width, size.height);
    return canvas;
  } finally {
    bitmap.close();
  }
}

/** The photo resized for upload, as a JPEG data URL (the single tab sends it as base64). */
export async function resizeImageFile(file: Blob): Promise<string> {
  return (await drawFitted(file)).toDataURL('image/jpeg', UPLOAD_JPEG_QUALITY);
}

/** The photo resized for upload, as JPEG bytes (the batch tab zips them). */
export async function resizeImageToJpeg(file: Blob): Promise<Blob> {
  const canvas = await drawFitted(file);
  return new Promise((resolve, reject) => {
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('This browser could not encode the image.'))),
      'image/jpeg',
      UPLOAD_JPEG_QUALITY,
    );
  });
}
