import type { RgbImage } from '../imaging/decode';
import { asBuffer, pixelThread } from '../imaging/pixel-thread';
import { segmentProduct } from '../imaging/segment';
import type { InferenceModel } from '../models/runtime';
import type { ProductCutout } from './cutout';

export type { Box, ProductCutout } from './cutout';

/**
 * Segments the product once per generation and refines the matte at full resolution: specks removed, edges
 * snapped to the photo's edges (guided filter), faint haze of the old background cleared, edge colours freed of
 * the old background. Solid product pixels are copied unchanged. The model runs on the inference thread, the
 * refinement on the pixel thread.
 */
export async function cutOutProduct(model: InferenceModel, image: RgbImage): Promise<ProductCutout> {
  const coarse = await segmentProduct(model, image);
  const cutout = await pixelThread.run('refineCutout', [image, coarse]);
  return { ...cutout, rgba: asBuffer(cutout.rgba) };
}
