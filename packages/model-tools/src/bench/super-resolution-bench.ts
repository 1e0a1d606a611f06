import path from 'node:path';
import sharp from 'sharp';
import { loadConfig } from '@productgen/service-kit';
import { generationConfigSchema } from '@productgen/generation-service';
import {
  keepPhotoStructure,
  sharpenWithAlpha,
  SCALE,
  upscale4x,
  findRepoRoot,
  describeInt8Kernels,
  loadConfiguredRuntime,
  type InferenceModel,
  closeStudioThreads,
} from '@productgen/studio-engine/internals';
import { describeCpu } from '@productgen/host-cpu';

/*
 * npm run bench:super-resolution — when is Real-ESRGAN worth its cost? Crops of real photos (the truth) are reduced
 * by a factor f, then brought back to full size the two ways the studio can: lanczos3 + the sharpen, or the model
 * path (×4 of the crop at a quarter of the size, held to the photo's structure, then the sharpen). Printed per f,
 * averaged over the photos: PSNR against the truth, and the fine detail (the truth minus its blur): how well the
 * restored fine detail correlates with the real one and how much of its energy there is. Asserts nothing; the
 * studio's MODEL_MIN_ENLARGEMENT is chosen from these figures.
 */

const PHOTOS = [
  'electronics/compact-camera.jpg',
  'electronics/headphones-black.jpg',
  'fashion/boot-white-fringe.jpg',
  'fitness/boxing-gloves.jpg',
  'kitchen/moka-pot.jpg',
  'toys/robot-toy.jpg',
  'bags/backpack-red.jpg',
  'food/nut-snack-pouches.jpg',
];
const FACTORS = [1.5, 2, 2.5, 3, 4, 6];
/** Side of the truth crop (the photos are ≥ 1067 px). */
const SIDE = 640;

const rgbOf = (data: Buffer, width: number, height: number, channels: 3 | 4 = 3) =>
  sharp(data, { raw: { width, height, channels } });

/** The fine detail of an image: itself minus its blur (sigma 1.2 px). */
async function fineDetail(rgb: Buffer): Promise<Float32Array> {
  const blurred = await rgbOf(rgb, SIDE, SIDE).blur(1.2).raw().toBuffer();
  return Float32Array.from(rgb, (value, k) => value - blurred[k]!);
}

function psnr(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let k = 0; k < a.length; k += 1) sum += (a[k]! - b[k]!) ** 2;
  return 10 * Math.log10((255 * 255) / (sum / a.length));
}

/** Correlation of restored with real fine detail, and the restored's energy relative to the real. */
function detailAgreement(real: Float32Array, restored: Float32Array): { correlation: number; energy: number } {
  let both = 0;
  let realEnergy = 0;
  let restoredEnergy = 0;
  for (let k = 0; k < real.length; k += 1) {
    both += real[k]! * restored[k]!;
    realEnergy += real[k]! ** 2;
    restoredEnergy += restored[k]! ** 2;
  }
  return { correlation: both / Math.sqrt(realEnergy * restoredEnergy), energy: Math.sqrt(restoredEnergy / realEnergy) };
}

const opaque = (pixels: number) => Buffer.alloc(pixels, 255);

async function sharpened(rgb: Buffer): Promise<Buffer> {
  const rgba = await sharpenWithAlpha(rgb, opaque(SIDE * SIDE), SIDE, SIDE);
  return rgbOf(rgba, SIDE, SIDE, 4).removeAlpha().raw().toBuffer();
}

/** The two restorations of a reduced crop (`low`, `side`² pixels) to SIDE². */
async function restorations(model: InferenceModel, low: Buffer, side: number): Promise<Record<string, Buffer>> {
  const lanczos = await rgbOf(low, side, side).resize(SIDE, SIDE, { kernel: 'lanczos3' }).raw().toBuffer();
  const input = SIDE / SCALE;
  const reduced = await rgbOf(low, side, side).resize(input, input, { kernel: 'lanczos3' }).raw().toBuffer();
  const upscaled = await upscale4x(model, { data: reduced, width: input, height: input });
  const photo = await rgbOf(low, side, side)
    .joinChannel(opaque(side * side), { raw: { width: side, height: side, channels: 1 } })
    .raw()
    .toBuffer();
  const kept = await keepPhotoStructure(upscaled, { rgba: photo, width: side, height: side });
  return { 'lanczos + sharpen': await sharpened(lanczos), 'model + sharpen': await sharpened(kept.data) };
}

async function main(): Promise<void> {
  console.log(describeCpu());
  const config = loadConfig(generationConfigSchema, process.env);
  const runtime = await loadConfiguredRuntime(config);
  console.log(describeInt8Kernels(runtime));
  const photosDir = path.resolve(findRepoRoot(), process.env.PHOTOS_DIR ?? '../shared/photos/test');
  const scores = new Map<string, { psnr: number; correlation: number; energy: number }[]>();
  for (const photo of PHOTOS) {
    const file = path.join(photosDir, photo);
    const { width = 0, height = 0 } = await sharp(file).metadata();
    const truth = await sharp(file)
      .extract({ left: (width - SIDE) >> 1, top: (height - SIDE) >> 1, width: SIDE, height: SIDE })
      .removeAlpha()
      .raw()
      .toBuffer();
    const realDetail = await fineDetail(truth);
    for (const factor of FACTORS) {
      const side = Math.round(SIDE / factor);
      const low = await rgbOf(truth, SIDE, SIDE).resize(side, side, { kernel: 'lanczos3' }).raw().toBuffer();
      for (const [method, restored] of Object.entries(await restorations(runtime.upscaler, low, side))) {
        const key = `${factor}\t${method}`;
        const list = scores.get(key) ?? [];
        list.push({ psnr: psnr(truth, restored), ...detailAgreement(realDetail, await fineDetail(restored)) });
        scores.set(key, list);
      }
    }
  }
  console.log(`super-resolution: ${PHOTOS.length} photo crops of ${SIDE}², reduced by f and restored; means`);
  console.log('f\tmethod\t\t\tPSNR (dB)\tfine-detail correlation\tfine-detail energy');
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  for (const [key, list] of scores) {
    const figures = [
      mean(list.map((score) => score.psnr)).toFixed(2),
      mean(list.map((score) => score.correlation)).toFixed(3),
      mean(list.map((score) => score.energy)).toFixed(2),
    ];
    console.log(`${key}\t\t${figures.join('\t\t')}`);
  }
  await closeStudioThreads();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
