import sharp from 'sharp';
import { buildClassCategories, guessProduct, softmax, type ProductGuess } from '../domain/analysis';
import type { CategoryId } from '../domain/categories';
import type { InferenceModel } from '../models/runtime';

const SIZE = 224;
const MEAN = [0.485, 0.456, 0.406] as const;
const STD = [0.229, 0.224, 0.225] as const;

const classCategoryCache = new WeakMap<readonly string[], (CategoryId | undefined)[]>();

/** MobileNetV2 on the photo (shorter side 256, centre 224), mapped to a product name and category. */
export async function classifyProduct(
  model: InferenceModel,
  labels: readonly string[],
  image: Buffer,
): Promise<ProductGuess> {
  const pixels = await sharp(image, { failOn: 'none' })
    .rotate()
    .resize(256, 256, { fit: 'outside', kernel: 'lanczos3' })
    .resize(SIZE, SIZE, { fit: 'cover', position: 'centre' })
    .flatten({ background: '#ffffff' })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer();
  const plane = SIZE * SIZE;
  const input = new Float32Array(3 * plane);
  for (let k = 0; k < plane; k += 1) {
    for (let c = 0; c < 3; c += 1) input[c * plane + k] = (pixels[k * 3 + c]! / 255 - MEAN[c]!) / STD[c]!;
  }
  const { data: logits } = await model.run(input, [1, 3, SIZE, SIZE]);
  let classCategories = classCategoryCache.get(labels);
  if (!classCategories) {
    classCategories = buildClassCategories(labels);
    classCategoryCache.set(labels, classCategories);
  }
  return guessProduct(softmax(logits), labels, classCategories);
}
