import type { FloatPlane } from '@productgen/image-algorithms';
import sharp from 'sharp';
import type { InferenceModel } from '../models/model-sessions';
import type { RgbImage } from '../kernels/decode';

export const SEGMENTER_SIZE = 320;
const SIZE = SEGMENTER_SIZE;
const MEAN = [0.485, 0.456, 0.406] as const;
const STD = [0.229, 0.224, 0.225] as const;

/** Interleaved 8-bit RGB → the planar, ImageNet-normalised float input both the segmenter and the classifier take. */
export function imageNetInput(rgb: Uint8Array): Float32Array {
  const pixels = rgb.length / 3;
  const input = new Float32Array(rgb.length);
  for (let k = 0; k < pixels; k += 1) {
    for (let c = 0; c < 3; c += 1) input[c * pixels + k] = (rgb[k * 3 + c]! / 255 - MEAN[c]!) / STD[c]!;
  }
  return input;
}

/** A rectangle of the photo, in pixels. */
export interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * U²-Net small: the product's saliency map at 320×320, min-max normalised to [0,1], of the whole photo or of one
 * region of it (a close-up pass sees the product at a higher resolution).
 */
export async function segmentProduct(model: InferenceModel, image: RgbImage, region?: Region): Promise<FloatPlane> {
  const source = sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } });
  if (region) source.extract(region);
  const resized = await source.resize(SIZE, SIZE, { fit: 'fill', kernel: 'lanczos3' }).raw().toBuffer();
  const pixels = SIZE * SIZE;
  const input = imageNetInput(resized);
  const { data: map } = await model.run(input, [1, 3, SIZE, SIZE]);
  let min = Infinity;
  let max = -Infinity;
  for (const value of map) {
    if (value < min) min = value;
    if (value > max) max = value;
  }
  const range = max - min || 1;
  const data = new Float32Array(pixels);
  for (let k = 0; k < pixels; k += 1) data[k] = (map[k]! - min) / range;
  return { data, width: SIZE, height: SIZE };
}
