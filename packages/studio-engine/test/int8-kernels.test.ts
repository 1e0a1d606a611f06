import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { onnx } from 'onnx-proto';
import { describeCpu, hostCpu, type HostCpu } from '@productgen/host-cpu';
import { buildClassCategories, guessProduct, softmax } from '../src/analysis/product-guess';
import { float32Classifier } from '../src/models/classifier-reference';
import {
  chooseInt8Kernels,
  describeInt8KernelPlan,
  forInt8Kernels,
  withUnsignedWeights,
} from '../src/models/int8-kernels';
import { ensureModels } from '../src/models/model-store';
import { DataType, int8Values, tensorBytes } from '../src/models/onnx-graph';
import { closeInferenceThread, openModel } from '../src/models/model-sessions';
import { wholePhotoInput } from '../src/analysis/classify';
import { PHOTOS_DIR, SHARED_MODELS_DIR } from './helpers';
import { int8PathsToCheck } from './int8-paths';

/*
 * The classifier on every int8 kernel path this CPU runs, against the float32 reference computed here (the same
 * model, every integer operator computed in float: `float32Classifier`). Both paths compute the same integer sums
 * where they are exact, so they answer alike; the reference differs from them only by float rounding on the uint8
 * grids. Measured on the 36 test photos, AMD EPYC with AVX-512 VNNI: u8s8 and u8u8 identical; against the reference
 * the same name and category on 34 of 36 photos (two borderline guesses move), mean |logit difference| per photo
 * 0.31 at most 0.46. u8s8 forced on an AVX2-only CPU (emulated: qemu-x86_64 -cpu max) saturates: see the README.
 */
const MAX_DIFFERENT_GUESSES = 3;
const MAX_MEAN_LOGIT_DIFFERENCE = 0.6;

const cpu = (flags: string): string => `processor\t: 0\nflags\t\t: fpu sse2 ${flags}\n`;

describe('int8 kernels: chosen per CPU, the same answers on each', () => {
  test('u8s8 only where VNNI makes it exact, and for the upscaler within its tolerance; a configured path for all', () => {
    const vnni = hostCpu(cpu('avx2 avx512f avx512_vnni'));
    const avxVnni = hostCpu(cpu('avx2 avx_vnni'));
    const avx2 = hostCpu(cpu('avx2 avx512f'));
    const unknown: HostCpu = { ...avx2, avx2: undefined, avx512: undefined, vnni: undefined };
    expect([vnni.vnni, avxVnni.vnni, avx2.vnni, avx2.avx512]).toEqual([true, true, false, true]);
    const kernelsOf = (plan: ReturnType<typeof chooseInt8Kernels>) =>
      Object.fromEntries(Object.entries(plan).map(([model, { kernels, reason }]) => [model, `${kernels} ${reason}`]));
    if (process.arch === 'x64') {
      const fast = { classifier: 'u8s8 vnni', segmentation: 'u8s8 vnni', upscaler: 'u8s8 vnni' };
      expect(kernelsOf(chooseInt8Kernels(vnni))).toEqual(fast);
      expect(kernelsOf(chooseInt8Kernels(avxVnni))).toEqual(fast);
      expect(kernelsOf(chooseInt8Kernels(avx2))).toEqual({
        classifier: 'u8u8 no-vnni',
        segmentation: 'u8u8 no-vnni',
        upscaler: 'u8s8 within-tolerance',
      });
      expect(describeInt8KernelPlan(chooseInt8Kernels(avx2))).toMatch(
        /^classifier and segmentation run u8u8 int8 kernels \(no VNNI: .+\); upscaler runs u8s8 int8 kernels \(no VNNI: .+\)$/,
      );
    }
    expect(kernelsOf(chooseInt8Kernels(unknown))).toEqual({
      classifier: 'u8u8 unknown-cpu',
      segmentation: 'u8u8 unknown-cpu',
      upscaler: 'u8u8 unknown-cpu',
    });
    const forced = chooseInt8Kernels(avx2, 'u8s8');
    expect(kernelsOf(forced)).toEqual({
      classifier: 'u8s8 configured',
      segmentation: 'u8s8 configured',
      upscaler: 'u8s8 configured',
    });
    expect(forced.classifier.explanation).toContain('can saturate');
    expect(describeCpu(avx2)).toMatch(/^CPU: .+, \d+ cores, AVX2 yes, AVX-512 yes, VNNI no$/);
    expect(describeCpu(vnni)).toMatch(/VNNI yes \(avx512_vnni\)$/);
  });

  test('unsigned weights hold the same values: every int8 weight and zero point +128, nothing else touched', async () => {
    const signed = await (await ensureModels(SHARED_MODELS_DIR, undefined)).read('classifier');
    const before = new Map(onnx.ModelProto.decode(signed).graph!.initializer!.map((t) => [t.name!, t]));
    const after = onnx.ModelProto.decode(withUnsignedWeights(signed)).graph!.initializer!;
    let shifted = 0;
    for (const tensor of after) {
      const original = before.get(tensor.name!)! as onnx.TensorProto;
      if (original.dataType !== DataType.INT8) {
        expect(Buffer.compare(tensorBytes(tensor as onnx.TensorProto), tensorBytes(original))).toBe(0);
        continue;
      }
      shifted += 1;
      expect(tensor.dataType).toBe(DataType.UINT8);
      const unsigned = tensorBytes(tensor as onnx.TensorProto);
      const values = int8Values(original);
      let moved = 0;
      for (let k = 0; k < values.length; k += 1) if (unsigned[k]! - 128 !== values[k]) moved += 1;
      expect({ length: unsigned.length, moved }).toEqual({ length: values.length, moved: 0 });
    }
    expect(shifted).toBe(106); // 52 QLinearConv and one QLinearMatMul: weights and zero points
    // A model with no int8 weight (the reference) comes back as it is.
    const reference = float32Classifier(withUnsignedWeights(signed));
    expect(withUnsignedWeights(reference)).toBe(reference);
  }, 60_000);

  describe.each(int8PathsToCheck('classifier'))('the classifier on %s kernels', (kernels) => {
    afterAll(() => closeInferenceThread());

    test('names and files the test photos as the float32 reference does', async () => {
      const files = await ensureModels(SHARED_MODELS_DIR, undefined);
      const signed = await files.read('classifier');
      const labels = z.array(z.string()).parse(JSON.parse(await readFile(files.pathOf('labels'), 'utf8')));
      const classCategories = buildClassCategories(labels);
      const reference = await openModel('int8-kernels.test#reference', float32Classifier(signed), 'reference', {
        floatReference: true,
      });
      const model = await openModel(`int8-kernels.test#${kernels}`, forInt8Kernels(signed, kernels), kernels);
      const manifest = z
        .object({ photos: z.array(z.object({ file: z.string(), set: z.string() })) })
        .parse(JSON.parse(await readFile(path.join(PHOTOS_DIR, 'manifest.json'), 'utf8')));
      const photos = manifest.photos.filter((photo) => photo.set === 'test');
      expect(photos.length).toBeGreaterThanOrEqual(30);
      const different: string[] = [];
      const logitDifferences: number[] = [];
      for (const photo of photos) {
        const input = await wholePhotoInput(await readFile(path.join(PHOTOS_DIR, photo.file)));
        const expected = (await reference.run(input.slice(), [1, 3, 224, 224])).data;
        const actual = (await model.run(input, [1, 3, 224, 224])).data;
        let sum = 0;
        for (let k = 0; k < expected.length; k += 1) sum += Math.abs(actual[k]! - expected[k]!);
        logitDifferences.push(sum / expected.length);
        const want = guessProduct(softmax(expected), labels, classCategories);
        const got = guessProduct(softmax(actual), labels, classCategories);
        if (want.object !== got.object || want.category !== got.category) {
          different.push(`${photo.file}: ${got.object}/${got.category}, reference ${want.object}/${want.category}`);
        }
      }
      process.stdout.write(
        `${describeCpu()}\nclassifier ${kernels} vs float32 reference: ${photos.length - different.length} of ` +
          `${photos.length} the same; mean |logit difference| at most ${Math.max(...logitDifferences).toFixed(3)}\n` +
          different.map((line) => `  ${line}\n`).join(''),
      );
      expect(different.length).toBeLessThanOrEqual(MAX_DIFFERENT_GUESSES);
      expect(Math.max(...logitDifferences)).toBeLessThanOrEqual(MAX_MEAN_LOGIT_DIFFERENCE);
    }, 120_000);
  });
});
