import path from 'node:path';
import sharp from 'sharp';
import type { RgbaImage } from '../../src/inference/tensors';

export type ToolModelName = 'segmentation' | 'upscaler';

type ModelFiles = unknown;
// The studio engine's model loader and the build's model step (their Node sources do not typecheck under this
// browser workspace's settings, so only the functions used are typed here).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
const { ensureModels } = require('@productgen/studio-engine') as {
  ensureModels(modelsDir: string, sharedDir: undefined): Promise<ModelFiles>;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the build script is CommonJS JavaScript
const { toolModelBytes } = require('../../build/prepare-assets') as {
  toolModelBytes(files: ModelFiles, model: ToolModelName): Promise<Uint8Array>;
};

const repoRoot = path.resolve(__dirname, '..', '..', '..');
export const sharedModels = path.resolve(repoRoot, '..', 'shared', 'models');
const testPhotos = path.resolve(repoRoot, '..', 'shared', 'photos', 'test');

/** The bytes of a tool's model exactly as the build writes them (build/prepare-assets.js), from the shared models. */
export async function shippedModelReader(): Promise<(model: ToolModelName) => Promise<Uint8Array>> {
  const files = await ensureModels(sharedModels, undefined);
  return (model) => toolModelBytes(files, model);
}

/** A test photo (path under photos/test) as RGBA pixels, its long side scaled to `longSide`. */
export async function testPhotoPixels(file: string, longSide: number): Promise<RgbaImage> {
  const { data, info } = await sharp(path.join(testPhotos, file))
    .resize(longSide, longSide, { fit: 'inside' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8ClampedArray(data), width: info.width, height: info.height };
}

/** Intersection over union of two alphas cut at 128. */
export function maskIoU(a: Uint8ClampedArray, b: Uint8ClampedArray): number {
  let both = 0;
  let either = 0;
  for (let i = 0; i < a.length; i += 1) {
    const inA = a[i]! >= 128;
    const inB = b[i]! >= 128;
    if (inA && inB) both += 1;
    if (inA || inB) either += 1;
  }
  return either === 0 ? 1 : both / either;
}
