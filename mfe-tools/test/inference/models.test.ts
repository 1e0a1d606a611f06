/**
 * @jest-environment node
 */
// The browser's model code (pre-processing, tiling, mask refinement) run with the real models in onnxruntime-node,
// and the build's fp16 → fp32 conversion checked against the original file.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { labelRegions } from '@productgen/image-algorithms';
import { onnx } from 'onnx-proto';
import { segmentProduct, SEGMENTATION_SIZE } from '../../src/inference/segmentation';
import { rgbaToPlanar, type RgbaImage } from '../../src/inference/tensors';
import { upscaleImage } from '../../src/inference/upscaling';
import { suiteModelLoader } from '../support/node-onnx';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the build script is CommonJS JavaScript
const { convertFloat16ModelToFloat32 } = require('../../build/onnx-fp16-to-fp32') as {
  convertFloat16ModelToFloat32(bytes: Uint8Array): { bytes: Uint8Array; removedCasts: number };
};

jest.setTimeout(120_000);

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const sharedModels = path.resolve(repoRoot, '..', 'shared', 'models');
const modelsDir = [path.resolve(repoRoot, process.env.MODELS_DIR || 'models/cache'), sharedModels].find((dir) =>
  existsSync(path.join(dir, 'u2netp-fp16.onnx')),
);
const PHOTO = path.resolve(repoRoot, '..', 'shared', 'photos', 'test', 'kitchen', 'moka-pot.jpg');

/** A bag whose handles close over the background: openings the cut-out must keep see-through. */
const BAG_WITH_HANDLES = path.resolve(repoRoot, '..', 'shared', 'photos', 'test', 'bags', 'tote-green.jpg');

async function photoPixels(longSide: number, photo = PHOTO): Promise<RgbaImage> {
  const { data, info } = await sharp(photo)
    .resize(longSide, longSide, { fit: 'inside' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8ClampedArray(data), width: info.width, height: info.height };
}

const load = suiteModelLoader();

if (!modelsDir) throw new Error('u2netp-fp16.onnx not found: run `npm run models:fetch`');
const fp16Bytes = readFileSync(path.join(modelsDir, 'u2netp-fp16.onnx'));
const converted = convertFloat16ModelToFloat32(fp16Bytes);

describe('u2netp converted to float32 at build', () => {
  it('has no float16 tensor left and fewer Cast nodes', () => {
    const model = onnx.ModelProto.decode(converted.bytes);
    const float16 = onnx.TensorProto.DataType.FLOAT16;
    expect((model.graph?.initializer ?? []).filter((tensor) => tensor.dataType === float16)).toEqual([]);
    expect(converted.removedCasts).toBeGreaterThan(100);
  });

  it('gives the fp16 model’s mask on a real photo (float16 rounding apart)', async () => {
    const [original, widened] = await Promise.all([load(fp16Bytes), load(converted.bytes)]);
    const input = rgbaToPlanar(
      await photoPixels(640),
      SEGMENTATION_SIZE,
      SEGMENTATION_SIZE,
      [0.485, 0.456, 0.406],
      [0.229, 0.224, 0.225],
    );
    const dims = [1, 3, SEGMENTATION_SIZE, SEGMENTATION_SIZE];
    const [a, b] = await Promise.all([original.run(input, dims), widened.run(input, dims)]);
    let maxDifference = 0;
    let totalDifference = 0;
    let disagreements = 0;
    for (let i = 0; i < a.data.length; i += 1) {
      const difference = Math.abs(a.data[i] - b.data[i]);
      maxDifference = Math.max(maxDifference, difference);
      totalDifference += difference;
      if (a.data[i] >= 0.5 !== b.data[i] >= 0.5) disagreements += 1;
    }
    const meanDifference = totalDifference / a.data.length;
    console.log(
      `u2netp fp16 vs fp32 on a photo: max ${maxDifference.toExponential(2)}, mean ${meanDifference.toExponential(2)}, ` +
        `${disagreements} of ${a.data.length} pixels on the other side of 0.5`,
    );
    // The fp16 model computes its activations in float16; near a steep edge that moves a few pixels' values.
    expect(maxDifference).toBeLessThan(0.15);
    expect(meanDifference).toBeLessThan(2e-3);
    expect(disagreements / a.data.length).toBeLessThan(0.002);
  });

  it('segments the product: a solid opaque share, transparent corners', async () => {
    const segmentation = await load(converted.bytes);
    const image = await photoPixels(400);
    const { alpha } = await segmentProduct(image, segmentation.run);
    const at = (x: number, y: number) => alpha[y * image.width + x];
    const { width, height } = image;
    expect([at(0, 0), at(width - 1, 0), at(0, height - 1), at(width - 1, height - 1)]).toEqual([0, 0, 0, 0]);
    const opaque = alpha.reduce((count, value) => count + (value === 255 ? 1 : 0), 0) / alpha.length;
    expect(opaque).toBeGreaterThan(0.05);
    expect(opaque).toBeLessThan(0.8);
  });

  it('keeps the openings a product encloses see-through (a bag’s handles), as the studio does', async () => {
    const segmentation = await load(converted.bytes);
    const image = await photoPixels(512, BAG_WITH_HANDLES);
    const { alpha } = await segmentProduct(image, segmentation.run);
    // Transparent regions that do not reach the frame: the background seen through the handles.
    const clear = Uint8Array.from(alpha, (value) => (value < 128 ? 1 : 0));
    const { labels } = labelRegions(clear, image.width);
    const open = new Set<number>();
    for (let x = 0; x < image.width; x += 1) open.add(labels[x]!).add(labels[(image.height - 1) * image.width + x]!);
    for (let y = 0; y < image.height; y += 1)
      open.add(labels[y * image.width]!).add(labels[(y + 1) * image.width - 1]!);
    const enclosed = labels.reduce((count, label) => count + (label >= 0 && !open.has(label) ? 1 : 0), 0);
    process.stdout.write(
      `bag with handles: enclosed see-through ${((100 * enclosed) / alpha.length).toFixed(2)} % of the frame\n`,
    );
    // Measured: 0.81 % of the frame (the two handles' loops); the remover before filled every enclosed hole: 0.
    expect(enclosed / alpha.length).toBeGreaterThan(0.003);
  });
});

describe('Real-ESRGAN tiled upscaling', () => {
  it('gives exactly 4× the input, tile by tile, close to the input when shrunk back', async () => {
    const upscaler = await load(readFileSync(path.join(modelsDir, 'realesr-general-x4v3-int8-dequant-fp32.onnx')));
    const image = await photoPixels(300);
    const progress: string[] = [];
    const result = await upscaleImage(image, upscaler.run, (done, total) => progress.push(`${done}/${total}`));
    expect([result.width, result.height]).toEqual([image.width * 4, image.height * 4]);
    const tiles = Math.ceil(image.width / 256) * Math.ceil(image.height / 256);
    expect(tiles).toBeGreaterThan(1);
    expect(progress).toEqual(Array.from({ length: tiles }, (_, index) => `${index + 1}/${tiles}`));
    const shrunk = await sharp(Buffer.from(result.data), {
      raw: { width: result.width, height: result.height, channels: 4 },
    })
      .resize(image.width, image.height, { kernel: 'cubic' })
      .raw()
      .toBuffer();
    let error = 0;
    for (let i = 0; i < shrunk.length; i += 4) error += Math.abs(shrunk[i] - image.data[i]);
    expect(error / (shrunk.length / 4)).toBeLessThan(12);
  });
});
