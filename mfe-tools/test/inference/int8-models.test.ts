/**
 * @jest-environment node
 */
// The tools ship the studio's statically quantized int8 models, pre-optimized (build/prepare-assets.js; the very
// bytes the build writes): here they are checked against the float32 models the tools shipped before, on real
// photos, through the browser's own code (segmentProduct with its mask refinement, the tiled upscaleImage), in
// onnxruntime-node.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { segmentProduct } from '../../src/inference/segmentation';
import { upscaleImage } from '../../src/inference/upscaling';
import { suiteModelLoader } from '../support/node-onnx';
import { maskIoU, sharedModels, shippedModelReader, testPhotoPixels } from '../support/tool-models';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the build script is CommonJS JavaScript
const { convertFloat16ModelToFloat32 } = require('../../build/onnx-fp16-to-fp32') as {
  convertFloat16ModelToFloat32(bytes: Uint8Array): { bytes: Uint8Array };
};

jest.setTimeout(300_000);

/** Products of every kind: thin parts, shiny metal, soft edges, see-through openings, busy backgrounds. */
const SEGMENTATION_PHOTOS = [
  'bags/tote-green.jpg',
  'beauty/perfume-bottle.jpg',
  'electronics/headphones-black.jpg',
  'fashion/dress-patterned-hanger.jpg',
  'furniture/shell-chair-black.jpg',
  'home-decor/pendant-lamp.jpg',
  'kitchen/toaster-chrome.jpg',
  'music/electric-guitar-red.jpg',
  'toys/teddy-bear.jpg',
];
const UPSCALER_PHOTOS = ['jewelry/watch-gold-mesh.jpg', 'food/nut-snack-pouches.jpg', 'fashion/boot-white-fringe.jpg'];

/*
 * The cut-out's alpha (after refinement, thresholded at 128) of the int8 model against the float one, and the
 * upscaled picture's PSNR against the float model's. Measured here (AMD EPYC, AVX2, no VNNI; onnxruntime-node's
 * u8s8 kernels): mask IoU mean 0.995, lowest 0.977 (the perfume bottle's glass), the others 0.993–1.000; PSNR
 * 40.2, 35.4 and 38.0 dB.
 */
const MIN_MASK_IOU = 0.95;
const MIN_MEAN_MASK_IOU = 0.98;
const MIN_UPSCALE_PSNR = 32;

/** PSNR of the RGB channels of two RGBA pictures of the same size. */
function psnr(a: Uint8ClampedArray, b: Uint8ClampedArray): number {
  let squared = 0;
  let count = 0;
  for (let i = 0; i < a.length; i += 1) {
    if (i % 4 === 3) continue;
    squared += (a[i]! - b[i]!) ** 2;
    count += 1;
  }
  return 10 * Math.log10((255 * 255) / (squared / count || 1e-12));
}

const load = suiteModelLoader();

let shipped: Awaited<ReturnType<typeof shippedModelReader>>;
beforeAll(async () => {
  shipped = await shippedModelReader();
});

describe('the int8 models the tools ship, against the float32 models', () => {
  it('cut out the same products (mask IoU after the refinement)', async () => {
    const [int8, float] = await Promise.all([
      shipped('segmentation').then(load),
      load(convertFloat16ModelToFloat32(readFileSync(path.join(sharedModels, 'u2netp-fp16.onnx'))).bytes),
    ]);
    const measured: string[] = [];
    const ious: number[] = [];
    for (const photo of SEGMENTATION_PHOTOS) {
      const image = await testPhotoPixels(photo, 512);
      const [a, b] = [await segmentProduct(image, int8.run), await segmentProduct(image, float.run)];
      ious.push(maskIoU(a.alpha, b.alpha));
      measured.push(`${photo} ${ious[ious.length - 1]!.toFixed(3)}`);
    }
    const mean = ious.reduce((sum, value) => sum + value, 0) / ious.length;
    process.stdout.write(`u2netp int8 vs float32 mask IoU: mean ${mean.toFixed(3)}; ${measured.join(', ')}\n`);
    expect(Math.min(...ious)).toBeGreaterThanOrEqual(MIN_MASK_IOU);
    expect(mean).toBeGreaterThanOrEqual(MIN_MEAN_MASK_IOU);
  });

  it('upscale to nearly the same picture (PSNR against the float model)', async () => {
    const [int8, float] = await Promise.all([
      shipped('upscaler').then(load),
      load(readFileSync(path.join(sharedModels, 'realesr-general-x4v3-int8-dequant-fp32.onnx'))),
    ]);
    const measured: number[] = [];
    for (const photo of UPSCALER_PHOTOS) {
      const image = await testPhotoPixels(photo, 96);
      const [a, b] = [await upscaleImage(image, int8.run), await upscaleImage(image, float.run)];
      measured.push(psnr(a.data, b.data));
    }
    process.stdout.write(
      `Real-ESRGAN int8 vs float32 PSNR: ${measured.map((value) => `${value.toFixed(1)} dB`).join(', ')}\n`,
    );
    expect(Math.min(...measured)).toBeGreaterThanOrEqual(MIN_UPSCALE_PSNR);
  });
});
