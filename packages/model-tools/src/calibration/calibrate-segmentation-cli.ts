import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { testPhotos } from './calibrate-upscaler-cli';
import {
  findRepoRoot,
  resolveFromRoot,
  float32Segmenter,
  segmenterActivations,
  imageNetInput,
  SEGMENTER_SIZE,
} from '@productgen/studio-engine/internals';
import { ActivationRanges } from './calibration';

/*
 * Re-measures SEGMENTATION_ACTIVATION_RANGES and rewrites the engine's segmentation-ranges.ts. A maintainer's tool (it needs the
 * photo set):
 *   npm run build -w @productgen/studio-engine -w @productgen/model-tools && node packages/model-tools/dist/calibration/calibrate-segmentation-cli.js
 * Calibration photos: every second test photo (sorted by path), whole, as the cut-out's first look sees them; the
 * others are for the quality check (packages/studio-engine/test/segmentation-int8.test.ts).
 */

export const SEGMENTER_SOURCE = 'u2netp-fp16.onnx';
const SIZE = SEGMENTER_SIZE;

/** A whole photo as the segmenter's input (planar, normalised), resized as the cut-out does. */
export async function segmenterInput(file: string): Promise<Float32Array> {
  const resized = await sharp(file)
    .removeAlpha()
    .resize(SIZE, SIZE, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  return imageNetInput(resized);
}

async function main(): Promise<void> {
  const repoRoot = findRepoRoot();
  const modelsDir = resolveFromRoot(process.env.SHARED_MODELS_DIR || '../shared/models', repoRoot);
  const photosDir = resolveFromRoot(process.env.PHOTOS_DIR || '../shared/photos', repoRoot);
  const fp16Model = await readFile(path.join(modelsDir, SEGMENTER_SOURCE));
  const names = segmenterActivations(fp16Model);
  const session = await ort.InferenceSession.create(float32Segmenter(fp16Model, true), { intraOpNumThreads: 1 });
  const ranges = new ActivationRanges(names);
  const photos = (await testPhotos(photosDir)).filter((_, index) => index % 2 === 0);
  for (const file of photos) {
    const feeds = {
      [session.inputNames[0]!]: new ort.Tensor('float32', await segmenterInput(file), [1, 3, SIZE, SIZE]),
    };
    const outputs = await session.run(feeds, names);
    for (const name of names) ranges.widen(name, outputs[name]!.data as Float32Array);
  }
  const lines = ranges.tableLines();
  const file = path.join(repoRoot, 'packages/studio-engine/src/models/segmentation-ranges.ts');
  await writeFile(
    file,
    `/**\n * Range [min, max] of every activation the quantized segmenter puts on a uint8 grid (segmentation-int8.ts), as\n` +
      ` * written by calibrate-segmentation-cli.ts: ${photos.length} whole test photos (every second one), rounded outward to\n` +
      ` * 1/16. Keys are tensor names of u2netp-fp16.onnx.\n */\n` +
      `export const SEGMENTATION_ACTIVATION_RANGES: Readonly<Record<string, readonly [number, number]>> = {\n${lines.join('\n')}\n};\n`,
  );
  console.log(`${names.length} activations from ${photos.length} photos written to ${file}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  });
}
