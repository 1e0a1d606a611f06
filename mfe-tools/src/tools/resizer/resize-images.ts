import { downloadBlob, makeCanvas } from '../../image/canvas';
import { JPEG_QUALITY, MAX_SINGLE_DOWNLOADS, ZIP_NAME } from '../../algorithms/resize-plan';

export interface ResizeJob {
  bitmap: ImageBitmap;
  width: number;
  height: number;
  name: string;
}

/**
 * Resizes with pica (Lanczos, the quality of a desktop editor rather than the canvas's bilinear), flattens onto
 * white (JPEG has no transparency) and encodes JPEG 0.9.
 */
async function resizeToJpeg(pica: import('pica').Pica, job: ResizeJob): Promise<Blob> {
  const source = makeCanvas(job.bitmap.width, job.bitmap.height);
  source.getContext('2d')?.drawImage(job.bitmap, 0, 0);
  const resized = await pica.resize(source, makeCanvas(job.width, job.height));
  const flat = makeCanvas(job.width, job.height);
  const context = flat.getContext('2d');
  if (!context) throw new Error('This browser cannot draw images (no 2D canvas).');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, job.width, job.height);
  context.drawImage(resized, 0, 0);
  return pica.toBlob(flat, 'image/jpeg', JPEG_QUALITY);
}

/** SPEC §9: up to three files are downloaded one by one, more as one resized_images.zip. */
export async function resizeAndDownload(jobs: ResizeJob[], onProgress: (done: number) => void): Promise<void> {
  const { default: createPica } = await import('pica');
  const pica = createPica();
  const files: { name: string; input: Blob }[] = [];
  for (const job of jobs) {
    files.push({ name: job.name, input: await resizeToJpeg(pica, job) });
    onProgress(files.length);
  }
  if (files.length <= MAX_SINGLE_DOWNLOADS) {
    for (const file of files) downloadBlob(file.input, file.name);
    return;
  }
  const { downloadZip } = await import('client-zip');
  downloadBlob(await downloadZip(files).blob(), ZIP_NAME);
}
