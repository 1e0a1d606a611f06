import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { onnx } from 'onnx-proto';
import { testPhotos, SEGMENTER_SOURCE, segmenterInput } from '@productgen/model-tools';
import { ensureModels, loadManifest } from '../src/models/model-store';
import { forInt8Kernels } from '../src/models/int8-kernels';
import { closeInferenceThread, openModel, type InferenceModel } from '../src/models/model-sessions';
import { FLOAT_CONVS, quantizedSegmenter } from '../src/models/segmentation-int8';
import { PHOTOS_DIR, SHARED_MODELS_DIR } from './helpers';
import { int8PathsToCheck } from './int8-paths';

/*
 * The segmenter is loaded as a statically quantized rewrite of u2netp-fp16.onnx (src/models/segmentation-int8.ts).
 * It must be the same bytes on every derivation (its sha256 is in the manifest) and find the masks the shipped file
 * finds. Checked on the test photos the calibration did not see (the odd ones), whole, as the cut-out's first look:
 * IoU of the two maps thresholded at 0.5 (after the min-max normalisation the cut-out applies). Measured here
 * (AVX-512 VNNI), 18 photos: min 0.925, median 0.992; mean |difference| of the maps 0.006, the same on u8s8 and u8u8
 * kernels (every path this CPU runs is checked: `int8PathsToCheck`). The control quantizes the two convolutions kept
 * float too: IoU 0 (the product lost).
 */
const MIN_IOU = 0.9;
const MIN_MEDIAN_IOU = 0.98;

const session = (name: string, model: Uint8Array) => openModel(`segmentation-int8.test#${name}`, model);

/** The map as the cut-out sees it: min-max normalised, thresholded at 0.5. */
async function mask(model: InferenceModel, input: Float32Array): Promise<Uint8Array> {
  const { data } = await model.run(input.slice(), [1, 3, 320, 320]);
  let min = Infinity;
  let max = -Infinity;
  for (const value of data) {
    min = Math.min(min, value);
    max = Math.max(max, value);
  }
  return Uint8Array.from(data, (value) => ((value - min) / (max - min || 1) > 0.5 ? 1 : 0));
}

function iou(a: Uint8Array, b: Uint8Array): number {
  let both = 0;
  let either = 0;
  for (let k = 0; k < a.length; k += 1) {
    both += a[k]! & b[k]!;
    either += a[k]! | b[k]!;
  }
  return either === 0 ? 1 : both / either;
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[values.length >> 1]!;

describe('statically quantized segmenter', () => {
  let fp16Model: Uint8Array;

  beforeAll(async () => {
    fp16Model = await readFile(path.join(SHARED_MODELS_DIR, SEGMENTER_SOURCE));
  });
  afterAll(() => closeInferenceThread());

  test('is derived deterministically, to the bytes the manifest pins, and is what the service loads', async () => {
    const first = quantizedSegmenter(fp16Model);
    expect(Buffer.compare(first, quantizedSegmenter(Uint8Array.from(fp16Model)))).toBe(0);
    const entry = (await loadManifest()).files.find((file) => file.name === 'segmentation')!;
    expect(createHash('sha256').update(first).digest('hex')).toBe(entry.derived?.sha256);
    const loaded = await (await ensureModels(SHARED_MODELS_DIR, undefined)).read('segmentation');
    expect(Buffer.compare(loaded, first)).toBe(0);
    // No float16 left; int8 weights in the 112 convolutions that feed a Relu, but the two kept float.
    const graph = onnx.ModelProto.decode(first).graph!;
    expect(graph.initializer!.some((t) => t.dataType === onnx.TensorProto.DataType.FLOAT16)).toBe(false);
    expect(graph.node!.filter((n) => n.opType === 'Conv').length).toBe(119);
    expect(graph.node!.filter((n) => n.name?.endsWith('.w.dq')).length).toBe(112 - FLOAT_CONVS.length);
  }, 60_000);

  test.each(int8PathsToCheck('segmentation'))(
    'finds the masks the shipped model finds on photos it was not calibrated on (%s kernels); quantizing all would not',
    async (kernels) => {
      const shipped = await session('fp16', fp16Model);
      const quantized = await session(`int8-${kernels}`, forInt8Kernels(quantizedSegmenter(fp16Model), kernels));
      const control = await session(
        `all-int8-${kernels}`,
        forInt8Kernels(quantizedSegmenter(fp16Model, undefined, []), kernels),
      );
      const photos = (await testPhotos(PHOTOS_DIR)).filter((_, index) => index % 2 === 1);
      const measured: number[] = [];
      const controlled: number[] = [];
      for (const [index, photo] of photos.entries()) {
        const input = await segmenterInput(photo);
        const expected = await mask(shipped, input);
        measured.push(iou(expected, await mask(quantized, input)));
        if (index < 3) controlled.push(iou(expected, await mask(control, input)));
      }
      process.stdout.write(
        `segmenter int8 (${kernels}) vs fp16 mask IoU: min ${Math.min(...measured).toFixed(3)}, ` +
          `median ${median(measured).toFixed(3)} (${measured.length} photos); ` +
          `control ${controlled.map((v) => v.toFixed(2)).join(' ')}\n`,
      );
      expect(Math.min(...measured)).toBeGreaterThanOrEqual(MIN_IOU);
      expect(median(measured)).toBeGreaterThanOrEqual(MIN_MEDIAN_IOU);
      expect(median(controlled)).toBeLessThan(MIN_MEDIAN_IOU);
    },
    120_000,
  );
});
