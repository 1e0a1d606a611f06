import type { RgbImage } from '../kernels/decode';
import { asBuffer } from '../threads/shared-memory';
import { pixelThread } from '../threads/pixel-thread';
import { segmentProduct } from './segment';
import type { InferenceModel } from '../models/model-sessions';
import {
  closeUpRegion,
  grownCloseUp,
  type CutoutOptions,
  type ProductCutout,
  type ProductMatte,
} from '../kernels/cutout';

export type { Box, ProductCutout, ProductMatte } from '../kernels/cutout';

/** The product cut out of a photo, with the matte it was cut by (undefined when the segmenter found nothing). */
export interface SegmentedProduct {
  cutout: ProductCutout;
  matte: ProductMatte | undefined;
}

/**
 * Segments the product in two looks and refines the matte at full resolution. U²-Net small sees the whole photo at
 * 320², then, when the product fills little of the frame, a close-up of the product's region (its thin parts and
 * edges at a higher resolution); the pixel thread fuses the two, refines them by colour models, keeps every
 * significant product region, fills holes and snaps the edges to the photo's (guided filter), then frees the edge
 * colours of the old background unless `options` says not to. Solid product pixels are copied unchanged. The model
 * runs on the inference thread.
 */
export async function cutOutProduct(
  model: InferenceModel,
  image: RgbImage,
  options?: CutoutOptions,
): Promise<SegmentedProduct> {
  const coarse = await segmentProduct(model, image);
  const region = closeUpRegion(coarse, image.width, image.height);
  let closeUp = region && { region, map: await segmentProduct(model, image, region) };
  // The product ran out of the close-up: one more look at a larger region.
  const grown = closeUp && grownCloseUp(closeUp, coarse, image.width, image.height);
  if (grown) closeUp = { region: grown, map: await segmentProduct(model, image, grown) };
  const { cutout, matte } = await pixelThread.run('refineCutout', [image, coarse, closeUp, options]);
  return { cutout: { ...cutout, rgba: asBuffer(cutout.rgba) }, matte };
}

/**
 * The cut-out by a matte made earlier (stored at analysis, or the seller's corrected one): no segmentation. The
 * photo is decoded with its long side at most `side`, on the pixel thread with the rest (`cutoutFromStoredMatte`).
 */
export async function cutOutWithMatte(original: Buffer, mattePng: Buffer, side: number): Promise<ProductCutout> {
  const cutout = await pixelThread.run('cutoutFromStoredMatte', [original, mattePng, side]);
  return { ...cutout, rgba: asBuffer(cutout.rgba) };
}
