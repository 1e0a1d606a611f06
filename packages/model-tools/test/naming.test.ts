import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { hostCpu } from '@productgen/host-cpu';
import {
  chooseInt8Kernels,
  closeStudioThreads,
  ensureModels,
  isLowCutoutConfidence,
  loadModelRuntime,
  nameProduct,
  viewProduct,
  type ModelRuntime,
  type ProductAnalysis,
} from '@productgen/studio-engine/internals';
import { judgedPhotos, judgeName, type JudgedPhoto, type NameVerdict } from '../src/eval/photo-set';

/*
 * Names and categories on the real photos (the test set and the eval set of hard cases), judged against what a
 * seller would call each product (src/eval/photo-judgements.ts). Precision first: a name is right, or generic
 * ("product", the category's noun), never a wrong specific object. Two ways the photos arrive:
 * - with their file names, as a seller's files usually are ("tshirt-wolf-print.jpg"): the product noun in the name
 *   weighs in the category and names the product;
 * - with a camera's file name ("IMG_0001.jpg"): the classifier alone.
 * Measured here (AVX-512 VNNI): file names 0 wrong, category 35/36 test and 64/66 eval; camera names 3 wrong of 102
 * ("candle" for a reed diffuser among candles, "strainer" for loose tea, "fashion item" for a baby bodysuit filed as fashion),
 * category 31/36 and 39/66. The code before this (names from the classifier's strongest class, no file name) gave
 * 68 wrong names of 102 and the same categories as camera names now. On an AVX2-only AMD EPYC (Zen 1, u8×u8): the
 * same with file names; camera names 1 wrong of 102, category 31/36 and 38/66; with INT8_KERNELS=u8s8 forced there,
 * 26/36 and 31/66, and the floor below fails.
 */

/** The machine's shared model folder (../shared beside the repository), as the engine's own tests read it. */
const SHARED_MODELS_DIR = path.resolve(__dirname, '../../../../shared/models');

interface Tally {
  right: number;
  generic: number;
  wrong: number;
  categories: number;
  photos: number;
}

const tally = (): Tally => ({ right: 0, generic: 0, wrong: 0, categories: 0, photos: 0 });

function count(into: Tally, photo: JudgedPhoto, guess: ProductAnalysis): NameVerdict {
  const verdict = judgeName(photo, guess.object);
  into[verdict] += 1;
  into.photos += 1;
  if (guess.category === photo.category) into.categories += 1;
  return verdict;
}

const line = (name: string, t: Tally) =>
  `${name.padEnd(16)} category ${t.categories}/${t.photos}  names right ${t.right}, generic ${t.generic}, wrong ${t.wrong}`;

describe('product names and categories on real photos', () => {
  let runtime: ModelRuntime;
  const withFileNames = { test: tally(), eval: tally() };
  const withCameraNames = { test: tally(), eval: tally() };
  const wrongWithFileNames: string[] = [];
  const wrongWithCameraNames: string[] = [];
  /** Cut-outs flagged low (the create screen opens the brush, a batch holds the product for the seller's check). */
  const flagged = { poor: 0, poorPhotos: 0, good: 0, goodPhotos: 0, missed: [] as string[] };

  beforeAll(async () => {
    // The kernels the service picks for this CPU; INT8_KERNELS=u8s8 forces the saturating path on a CPU without VNNI,
    // to see the floors fail there.
    const forced = process.env.INT8_KERNELS;
    runtime = await loadModelRuntime(await ensureModels(SHARED_MODELS_DIR, undefined), {
      int8Kernels: chooseInt8Kernels(hostCpu(), forced === 'u8s8' || forced === 'u8u8' ? forced : 'auto'),
    });
    for (const photo of await judgedPhotos()) {
      const view = await viewProduct(runtime, await readFile(photo.absolutePath));
      const named = nameProduct(runtime, view, { fileName: photo.file });
      if (count(withFileNames[photo.set], photo, named) === 'wrong')
        wrongWithFileNames.push(`${photo.file}: ${named.object}`);
      const unnamed = nameProduct(runtime, view, { fileName: 'IMG_0001.jpg' });
      if (count(withCameraNames[photo.set], photo, unnamed) === 'wrong')
        wrongWithCameraNames.push(`${photo.file}: ${unnamed.object} (${unnamed.category})`);
      const isFlagged = view.matte !== undefined && isLowCutoutConfidence(view.matte.confidence);
      if (photo.postable) {
        flagged.goodPhotos += 1;
        if (isFlagged) flagged.good += 1;
      } else {
        flagged.poorPhotos += 1;
        if (isFlagged) flagged.poor += 1;
        else flagged.missed.push(photo.file);
      }
    }
    process.stdout.write(
      [
        'with file names:',
        line('  test', withFileNames.test),
        line('  eval', withFileNames.eval),
        `  wrong: ${wrongWithFileNames.join('; ') || 'none'}`,
        'with camera file names:',
        line('  test', withCameraNames.test),
        line('  eval', withCameraNames.eval),
        `  wrong: ${wrongWithCameraNames.join('; ') || 'none'}`,
        `cut-outs flagged: ${flagged.poor}/${flagged.poorPhotos} of those judged poor, ${flagged.good}/${flagged.goodPhotos} of the good`,
        `  poor, not flagged: ${flagged.missed.join('; ') || 'none'}`,
        '',
      ].join('\n'),
    );
  }, 600_000);
  afterAll(() => closeStudioThreads());

  test('with the seller’s file names: no wrong name, and the category right on at least 90 % of each set', () => {
    expect(wrongWithFileNames).toEqual([]);
    for (const set of [withFileNames.test, withFileNames.eval]) {
      expect(set.photos).toBeGreaterThanOrEqual(30);
      expect(set.categories / set.photos).toBeGreaterThanOrEqual(0.9);
    }
  });

  test('with camera file names: a wrong name is rare (at most 1 in 25), the rest right or generic', () => {
    const photos = withCameraNames.test.photos + withCameraNames.eval.photos;
    expect(wrongWithCameraNames.length).toBeLessThanOrEqual(Math.floor(photos / 25));
  });

  test('with camera file names: the classifier alone files at least 83 % of the test photos right', () => {
    // The floor that was red on AVX2 servers without VNNI when their int8 kernels saturated (72 %); the models run
    // on the kernels the service picks for this CPU (exact on every CPU: the same answers on each).
    expect(withCameraNames.test.photos).toBeGreaterThanOrEqual(30);
    expect(withCameraNames.test.categories / withCameraNames.test.photos).toBeGreaterThanOrEqual(0.83);
  });

  test('the cut-out confidence flags most cut-outs judged poor, and few good ones', () => {
    // Measured here (AVX-512 VNNI): 16 of 23 poor and 11 of 79 good flagged; before the classifier's two views were
    // compared (the matte's measure alone), 9 of 23 and 3 of 79. The bounds leave room for other int8 kernels.
    expect(flagged.poorPhotos).toBeGreaterThanOrEqual(20);
    expect(flagged.poor / flagged.poorPhotos).toBeGreaterThanOrEqual(0.6);
    expect(flagged.good / flagged.goodPhotos).toBeLessThanOrEqual(0.2);
  });
});
