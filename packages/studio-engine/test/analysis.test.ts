import {
  buildClassCategories,
  checkReasons,
  guessProduct,
  isLowCutoutConfidence,
  LOW_CATEGORY_CONFIDENCE,
  LOW_CUTOUT_CONFIDENCE,
  unknownCategoryLabels,
} from '../src/analysis/product-guess';
import { ensureModels } from '../src/models/model-store';
import { loadModelRuntime, type ModelRuntime } from '../src/models/model-sessions';
import { closeStudioThreads } from '../src/threads/studio-threads';
import { cutoutConfidence, MIN_VIEW_AGREEMENT, sharedProbability } from '../src/analysis/classify';
import { SHARED_MODELS_DIR } from './helpers';

describe('analysis: product name and category', () => {
  let runtime: ModelRuntime;

  // Loading verifies the files, derives the int8 models and opens three sessions: seconds on a busy 2-core machine
  // (CI on 1a4661b ran past jest's default 5 s), like the other suites that load them.
  beforeAll(async () => {
    runtime = await loadModelRuntime(await ensureModels(SHARED_MODELS_DIR, undefined));
  }, 60_000);
  afterAll(() => closeStudioThreads());

  test('every label named in the category table exists in the label file', () => {
    expect(unknownCategoryLabels(runtime.labels)).toEqual([]);
  });

  test.each([
    ['chain mail', 'fashion', 'knitwear'],
    ['hoop skirt', 'fashion', 'dress'],
    ['envelope', 'home-decor', 'product'],
    ['coffee mug', 'kitchen', 'coffee mug'],
  ])('a product the classifier takes for "%s" is filed under %s as "%s"', (label, category, object) => {
    // All the probability on that one class, as when the classifier is sure of it.
    const probabilities = runtime.labels.map((candidate) => (candidate === label ? 1 : 0));
    const guess = guessProduct(probabilities, runtime.labels, buildClassCategories(runtime.labels));
    expect({ category: guess.category, object: guess.object }).toEqual({ category, object });
  });

  /** Probabilities with the given classes at the given values and the rest spread evenly. */
  function probabilitiesOf(chosen: Record<string, number>): number[] {
    const rest = 1 - Object.values(chosen).reduce((sum, value) => sum + value, 0);
    const others = runtime.labels.length - Object.keys(chosen).length;
    return runtime.labels.map((label) => chosen[label] ?? rest / others);
  }
  const guess = (chosen: Record<string, number>, hints?: Parameters<typeof guessProduct>[3]) =>
    guessProduct(probabilitiesOf(chosen), runtime.labels, buildClassCategories(runtime.labels), hints);

  test('a class the classifier is not nearly sure of does not name the product: the category noun or "product"', () => {
    expect(guess({ 'coffee mug': 0.6 })).toMatchObject({ category: 'kitchen', object: 'product', nameSource: 'none' });
    expect(guess({ 'coffee mug': 0.6, teapot: 0.38 })).toMatchObject({
      category: 'kitchen',
      object: 'kitchenware',
      nameSource: 'category',
    });
    expect(guess({ 'coffee mug': 0.95 })).toMatchObject({ object: 'coffee mug', nameSource: 'classifier' });
  });

  test('the file name’s product noun weighs in the category and names the product', () => {
    // The classifier leans to kitchen ("apron" is fashion, but the strainer is surer); the file says dress.
    expect(guess({ strainer: 0.4, apron: 0.1 }, { fileName: 'blue-dress.jpg' })).toMatchObject({
      category: 'fashion',
      object: 'dress',
      nameSource: 'file name',
    });
    // A camera's file name says nothing.
    expect(guess({ strainer: 0.4, apron: 0.1 }, { fileName: 'IMG_2041.jpg' }).category).toBe('kitchen');
    // A noun of several categories: the photo picks among them.
    expect(guess({ diaper: 0.3, pajamas: 0.2 }, { fileName: 'bodysuit-white.jpg' })).toMatchObject({
      category: 'baby',
      object: 'bodysuit',
    });
    expect(guess({ diaper: 0.1, pajamas: 0.4 }, { fileName: 'bodysuit-white.jpg' }).category).toBe('fashion');
  });

  test("the shop's categories weigh in a close call", () => {
    const close = { strainer: 0.3, apron: 0.25 };
    expect(guess(close).category).toBe('kitchen');
    expect(guess(close, { shopCategories: ['fashion'] }).category).toBe('fashion');
  });
});

test('a batch product waits for check when its cut-out or its category is uncertain', () => {
  expect(checkReasons(LOW_CUTOUT_CONFIDENCE, LOW_CATEGORY_CONFIDENCE)).toEqual([]);
  expect(checkReasons(LOW_CUTOUT_CONFIDENCE - 0.01, 0.9)).toEqual(['cutout']);
  expect(checkReasons(0.99, LOW_CATEGORY_CONFIDENCE - 0.01)).toEqual(['category']);
  // Nothing segmented (no matte) says nothing of the cut-out; filed under "other" for lack of mass is uncertain.
  expect(checkReasons(undefined, 0)).toEqual(['category']);
});

test('a cut-out the classifier takes for another thing than the whole photo is flagged, however sure its matte', () => {
  expect(sharedProbability([0.7, 0.3, 0], [0.7, 0.3, 0])).toBeCloseTo(1);
  expect(sharedProbability([1, 0], [0, 1])).toBe(0);
  expect(sharedProbability([0.6, 0.4, 0], [0.2, 0.2, 0.6])).toBeCloseTo(0.4);
  // Agreeing views leave the matte's own confidence, whether high or low.
  expect(cutoutConfidence(0.97, 0.9)).toBe(0.97);
  expect(isLowCutoutConfidence(cutoutConfidence(LOW_CUTOUT_CONFIDENCE - 0.01, 1))).toBe(true);
  // Views that share less than MIN_VIEW_AGREEMENT of their probability flag even a decisive matte.
  expect(isLowCutoutConfidence(cutoutConfidence(0.99, MIN_VIEW_AGREEMENT))).toBe(false);
  expect(isLowCutoutConfidence(cutoutConfidence(0.99, MIN_VIEW_AGREEMENT - 0.01))).toBe(true);
});
