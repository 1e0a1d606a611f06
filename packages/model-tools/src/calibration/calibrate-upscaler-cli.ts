import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import {
  findRepoRoot,
  resolveFromRoot,
  float32Upscaler,
  upscalerBends,
  upscalerConvOutputs,
} from '@productgen/studio-engine/internals';
import { ActivationRanges } from './calibration';

/*
 * Re-measures UPSCALER_ACTIVATION_RANGES and UPSCALER_BEND_RANGES (the engine's upscaler-int8.ts) and prints the tables to paste
 * there. Needs the photo
 * set, so it is a maintainer's tool, not part of fetching the models:
 *   npm run build -w @productgen/studio-engine -w @productgen/model-tools && node packages/model-tools/dist/calibration/calibrate-upscaler-cli.js
 * Calibration photos: every second test photo (sorted by path); the others are for the quality check
 * (packages/studio-engine/test/upscaler-int8.test.ts). One 64² crop each at a fixed pseudo-random place.
 */

const CROP = 64;
const UPSCALER_SOURCE = 'realesr-general-x4v3-int8.onnx';

export async function testPhotos(photosDir: string): Promise<string[]> {
  const root = path.join(photosDir, 'test');
  const files: string[] = [];
  for (const category of (await readdir(root)).sort()) {
    const names = await readdir(path.join(root, category)).catch(() => []);
    for (const name of names.sort()) if (/\.jpe?g$/i.test(name)) files.push(path.join(root, category, name));
  }
  return files;
}

/** A crop of `size`² px of a photo as the model's input (planar RGB, x/255), at a place given by `seed`. */
export async function photoCrop(file: string, size: number, seed: number): Promise<Float32Array> {
  const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  // Multiplicative hashing of the seed: the same place for the same photo and seed on every machine.
  const draw = (step: number) => (Math.imul(seed * 2 + step, 2654435761) >>> 0) / 2 ** 32;
  const x0 = Math.floor(draw(1) * (info.width - size));
  const y0 = Math.floor(draw(2) * (info.height - size));
  const plane = size * size;
  const input = new Float32Array(3 * plane);
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      for (let c = 0; c < 3; c += 1) {
        input[c * plane + y * size + x] = data[((y0 + y) * info.width + x0 + x) * info.channels + c]! / 255;
      }
    }
  }
  return input;
}

/** (a − 1)·min(x, 0) of a conv's output (planar, one slope less one per channel): what its PRelu adds to x. */
function bendsOf(output: Float32Array, bends: Float32Array): Float32Array {
  const plane = output.length / bends.length;
  return output.map((x, k) => (x < 0 ? bends[Math.floor(k / plane)]! * x : 0));
}

async function main(): Promise<void> {
  const repoRoot = findRepoRoot();
  const modelsDir = resolveFromRoot(process.env.SHARED_MODELS_DIR || '../shared/models', repoRoot);
  const photosDir = resolveFromRoot(process.env.PHOTOS_DIR || '../shared/photos', repoRoot);
  const int8Model = await readFile(path.join(modelsDir, UPSCALER_SOURCE));
  const convs = upscalerConvOutputs(int8Model);
  const session = await ort.InferenceSession.create(float32Upscaler(int8Model, true), { intraOpNumThreads: 1 });
  const ranges = new ActivationRanges(convs.map(({ name }) => name));
  const prelus = upscalerBends(int8Model);
  const bendRanges = new ActivationRanges(prelus.map(({ name }) => name));
  const photos = (await testPhotos(photosDir)).filter((_, index) => index % 2 === 0);
  for (const [index, file] of photos.entries()) {
    const input = await photoCrop(file, CROP, index + 1);
    const outputs = await session.run({
      [session.inputNames[0]!]: new ort.Tensor('float32', input, [1, 3, CROP, CROP]),
    });
    for (const { name, output } of convs) ranges.widen(name, outputs[output]!.data as Float32Array);
    for (const { name, output, bends } of prelus) {
      bendRanges.widen(name, bendsOf(outputs[output]!.data as Float32Array, bends));
    }
  }
  const heading = `// ${photos.length} photos, one ${CROP}² crop each`;
  console.log(`${heading}: UPSCALER_ACTIVATION_RANGES\n{\n${ranges.tableLines().join('\n')}\n}`);
  console.log(`${heading}: UPSCALER_BEND_RANGES\n{\n${bendRanges.tableLines().join('\n')}\n}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  });
}
