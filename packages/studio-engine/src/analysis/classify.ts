import sharp from 'sharp';
import { buildClassCategories, guessProduct, softmax, type AnalysisHints, type ProductGuess } from './product-guess';
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
  matte: ProductMatte | undefined;
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
  const view = cutout.segmented ? productOnWhite(cutout) : wholePhoto(image);
  const { data: logits } = await runtime.classifier.run(await classifierInput(view), [1, 3, SIZE, SIZE]);
  return { probabilities: softmax(logits), matte };
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
