import type { RgbImage } from '../imaging/decode';
import { asBuffer, pixelThread } from '../imaging/pixel-thread';
import type { FloatPlane } from '../imaging/raster';
import { segmentProduct } from '../imaging/segment';
import type { InferenceModel } from '../models/runtime';
import type { ProductCutout, ProductMatte } from './cutout';

export type { Box, ProductCutout, ProductMatte } from './cutout';

/** The product cut out of a photo, with the matte it was cut by (undefined when the segmenter found nothing). */
export interface SegmentedProduct {
  cutout: ProductCutout;
  matte: ProductMatte | undefined;
}

/**
 * Segments the product and refines the matte at full resolution: specks removed, edges snapped to the photo's
 * edges (guided filter), faint haze of the old background cleared, edge colours freed of the old background. Solid
 * product pixels are copied unchanged. The model runs on the inference thread, the refinement on the pixel thread.
 */
export async function cutOutProduct(model: InferenceModel, image: RgbImage): Promise<SegmentedProduct> {
  const coarse = await segmentProduct(model, image);
  const { cutout, matte } = await pixelThread.run('refineCutout', [image, coarse]);
  return { cutout: { ...cutout, rgba: asBuffer(cutout.rgba) }, matte };
}

/** The cut-out by a matte made earlier (stored at analysis, or the seller's corrected one): no segmentation. */
export async function cutOutWithMatte(image: RgbImage, alpha: FloatPlane): Promise<ProductCutout> {
  const cutout = await pixelThread.run('cutoutFromMatte', [image, alpha]);
  return { ...cutout, rgba: asBuffer(cutout.rgba) };
}
