import sharp from 'sharp';
import {
  buildClassCategories,
  guessProduct,
  LOW_CUTOUT_CONFIDENCE,
  softmax,
  type AnalysisHints,
  type ProductGuess,
} from './product-guess';
import type { CategoryId } from './categories';
import { decodeRgb } from '../kernels/decode';
import { imageNetInput } from '../cutout/segment';
import type { ModelRuntime } from '../models/model-sessions';
import { cutOutProduct, type ProductCutout, type ProductMatte } from '../cutout/product';

const SIZE = 224;
/** Long side the photo is cut out at for naming: enough for a clean silhouette at the classifier's 224 px. */
const ANALYSIS_SIDE = 1024;
/** White space around the product on the classifier's square, as a share of the product's long side. */
const MARGIN = 0.075;

const classCategoryCache = new WeakMap<readonly string[], (CategoryId | undefined)[]>();

/** The cut-out alone on white, centred on a square with a margin: what the product is, without its scene. */
function productOnWhite(cutout: ProductCutout): sharp.Sharp {
  const { box } = cutout;
  const width = Math.max(1, Math.round(box.right - box.left));
  const height = Math.max(1, Math.round(box.bottom - box.top));
  const side = Math.round(Math.max(width, height) * (1 + 2 * MARGIN));
  const padX = side - width;
  const padY = side - height;
  return sharp(cutout.rgba, { raw: { width: cutout.width, height: cutout.height, channels: 4 } })
    .extract({ left: Math.round(box.left), top: Math.round(box.top), width, height })
    .extend({
      left: Math.floor(padX / 2),
      right: Math.ceil(padX / 2),
      top: Math.floor(padY / 2),
      bottom: Math.ceil(padY / 2),
      background: { r: 255, g: 255, b: 255, alpha: 0 },
    });
}

/** The whole photo as the classifier was trained on it: shorter side 256, centre 224. */
function wholePhoto(image: Buffer): sharp.Sharp {
  return sharp(image, { failOn: 'none' }).rotate().resize(256, 256, { fit: 'outside', kernel: 'lanczos3' });
}

async function classifierInput(view: sharp.Sharp): Promise<Float32Array> {
  // The view is materialised first: within one sharp pipeline an extend or a second resize would follow this resize.
  const { data, info } = await view.raw().toBuffer({ resolveWithObject: true });
  const pixels = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .resize(SIZE, SIZE, { fit: 'cover', position: 'centre', kernel: 'lanczos3' })
    .flatten({ background: '#ffffff' })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer();
  return imageNetInput(pixels);
}

/** The classifier's input for the whole photo, as when the segmenter finds nothing. */
export const wholePhotoInput = (image: Buffer): Promise<Float32Array> => classifierInput(wholePhoto(image));

/** The product named, and the matte it was cut out by (stored with the generation and used by the renderer). */
export interface ProductAnalysis extends ProductGuess {
  /** Over the photo decoded at ANALYSIS_SIDE; undefined when the segmenter found nothing. */
  matte: ProductMatte | undefined;
}

/** What the classifier sees of a photo: its class probabilities, and the matte the product was cut out by. */
export interface ProductView {
  probabilities: Float64Array;
  /** Its confidence lowered when the cut-out and the whole photo look like different things (`viewAgreement`). */
  matte: ProductMatte | undefined;
  /** How alike the classifier finds the cut-out and the whole photo; undefined when nothing was cut out. */
  viewAgreement: number | undefined;
}

/**
 * Below this agreement between the classifier's view of the cut-out and of the whole photo, the cut-out is taken to
 * be something else than the photo's product: a part of it (the tone arm of a turntable, the rail of a clothes
 * rack, one fold of a stack of jeans) or the product with what holds it (a hand, an arm, a wall). The matte's own
 * measure cannot see these: their edges are as decisive as a good cut-out's. On the 102 judged real photos
 * (`npm run eval:photos`), flagging below it as well raised the poor cut-outs flagged from 9 to 16 of 23, and the
 * good ones flagged from 3 to 11 of 79: a good cut-out flagged costs the seller a glance, a poor one missed costs a
 * batch of unusable images.
 */
export const MIN_VIEW_AGREEMENT = 0.25;

/** The probability mass two of the classifier's answers share, Σ min(p, q): 1 when the same, 0 when disjoint. */
export function sharedProbability(p: ArrayLike<number>, q: ArrayLike<number>): number {
  let shared = 0;
  for (let i = 0; i < p.length; i += 1) shared += Math.min(p[i] ?? 0, q[i] ?? 0);
  return shared;
}

/**
 * The cut-out's confidence with the views' agreement: the matte's own, or less when the agreement is short of
 * MIN_VIEW_AGREEMENT (scaled so that the flag's threshold falls where the agreement's does).
 */
export function cutoutConfidence(matteConfidence: number, viewAgreement: number): number {
  return Math.min(matteConfidence, (LOW_CUTOUT_CONFIDENCE * viewAgreement) / MIN_VIEW_AGREEMENT);
}

/**
 * The classifier's look at a photo. MobileNetV2 sees the cut-out product on white rather than the scene, so the
 * table, the grass or a print on the product's surroundings do not name it; when the segmenter finds nothing, it
 * sees the whole photo.
 */
export async function viewProduct(runtime: ModelRuntime, image: Buffer): Promise<ProductView> {
  // The classifier sees the silhouette at 224 px: the edge colours are left as photographed (`CutoutOptions`).
  const { cutout, matte } = await cutOutProduct(runtime.segmentation, await decodeRgb(image, ANALYSIS_SIDE), {
    freeEdgeColours: false,
  });
  const classify = async (view: sharp.Sharp) =>
    softmax((await runtime.classifier.run(await classifierInput(view), [1, 3, SIZE, SIZE])).data);
  // What is named: the product on white, or the whole photo when nothing was cut out.
  const probabilities = await classify(cutout.segmented ? productOnWhite(cutout) : wholePhoto(image));
  if (!cutout.segmented || !matte) return { probabilities, matte, viewAgreement: undefined };
  // The whole photo as the classifier would see it without a cut-out (decoded from the original: the agreement moved
  // by up to 0.1 on some photos when it was resampled from the 1024-px decode instead).
  const viewAgreement = sharedProbability(probabilities, await classify(wholePhoto(image)));
  return {
    probabilities,
    matte: { ...matte, confidence: cutoutConfidence(matte.confidence, viewAgreement) },
    viewAgreement,
  };
}

/** Names and files a viewed product, with the seller's hints (pure: one view can be named with other hints). */
export function nameProduct(runtime: ModelRuntime, view: ProductView, hints: AnalysisHints = {}): ProductAnalysis {
  let classCategories = classCategoryCache.get(runtime.labels);
  if (!classCategories) {
    classCategories = buildClassCategories(runtime.labels);
    classCategoryCache.set(runtime.labels, classCategories);
  }
  return { ...guessProduct(view.probabilities, runtime.labels, classCategories, hints), matte: view.matte };
}

/** Cuts the product out of a photo, names it and files it (`viewProduct`, then `nameProduct`). */
export async function classifyProduct(
  runtime: ModelRuntime,
  image: Buffer,
  hints: AnalysisHints = {},
): Promise<ProductAnalysis> {
  return nameProduct(runtime, await viewProduct(runtime, image), hints);
}
