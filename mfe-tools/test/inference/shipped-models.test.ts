/**
 * @jest-environment node
 */
// The model files the tools ship are saved fully optimized at build (build/prepare-assets.js), so the browser's AI
// worker creates their sessions with no graph optimization at all. Here: the files hold the layout onnxruntime
// would otherwise give them on each visit, nothing only an x86 build of onnxruntime can run, and onnxruntime-web's
// WASM build (the browser's runtime) answers as onnxruntime-node does.
import path from 'node:path';
import { onnx } from 'onnx-proto';
import sharp from 'sharp';
import { segmentProduct } from '../../src/inference/segmentation';
import type { RgbaImage } from '../../src/inference/tensors';
import { suiteModelLoader } from '../support/node-onnx';

type ModelFiles = unknown;
// See int8-models.test.ts: the engine's model loader and the build's model step, typed for what is used here.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- CommonJS sources that do not typecheck here
const { ensureModels } = require('@productgen/studio-engine') as {
  ensureModels(modelsDir: string, sharedDir: undefined): Promise<ModelFiles>;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the build script is CommonJS JavaScript
const { toolModelBytes } = require('../../build/prepare-assets') as {
  toolModelBytes(files: ModelFiles, model: 'segmentation' | 'upscaler'): Promise<Uint8Array>;
};

jest.setTimeout(300_000);

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const sharedModels = path.resolve(repoRoot, '..', 'shared', 'models');
const testPhotos = path.resolve(repoRoot, '..', 'shared', 'photos', 'test');
const MODELS = ['segmentation', 'upscaler'] as const;

const load = suiteModelLoader();
const shipped = new Map<(typeof MODELS)[number], Uint8Array>();
beforeAll(async () => {
  const files = await ensureModels(sharedModels, undefined);
  for (const model of MODELS) shipped.set(model, await toolModelBytes(files, model));
});

async function photoPixels(file: string, longSide: number): Promise<RgbaImage> {
  const { data, info } = await sharp(path.join(testPhotos, file))
    .resize(longSide, longSide, { fit: 'inside' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8ClampedArray(data), width: info.width, height: info.height };
}

describe('the model files the tools ship', () => {
  it.each(MODELS)('%s: laid out as onnxruntime would lay it out, with no x86-only node', (model) => {
    const nodes = onnx.ModelProto.decode(shipped.get(model)!).graph?.node ?? [];
    const convs = nodes.filter((node) => node.opType === 'QLinearConv');
    expect(convs.length).toBeGreaterThan(10);
    // Channels-last QLinearConv is the layout onnxruntime's CPU provider gives an int8 convolution at 'all'.
    const channelsLast = (node: onnx.INodeProto) =>
      node.attribute?.some((attribute) => attribute.name === 'channels_last' && Number(attribute.i) === 1);
    expect(convs.filter((node) => !channelsLast(node))).toEqual([]);
    // The NCHWc layout (blocks of 8 or 16 channels, ReorderInput/ReorderOutput) exists only in x86 builds.
    expect(nodes.filter((node) => node.domain === 'com.microsoft.nchwc').map((node) => node.opType)).toEqual([]);
  });

  it('segmentation: onnxruntime-web with no graph optimization cuts out what onnxruntime-node does', async () => {
    const bytes = shipped.get('segmentation')!;
    const [web, node] = await Promise.all([load(bytes, 'onnxruntime-web'), load(bytes, 'onnxruntime-node')]);
    for (const photo of ['bags/tote-green.jpg', 'home-decor/pendant-lamp.jpg']) {
      const image = await photoPixels(photo, 384);
      const [a, b] = [await segmentProduct(image, web.run), await segmentProduct(image, node.run)];
      let differing = 0;
      for (let i = 0; i < a.alpha.length; i += 1) if (a.alpha[i]! >= 128 !== b.alpha[i]! >= 128) differing += 1;
      expect(differing / a.alpha.length).toBeLessThan(0.005);
    }
  });

  it('upscaler: onnxruntime-web with no graph optimization upscales as onnxruntime-node does', async () => {
    const bytes = shipped.get('upscaler')!;
    const [web, node] = await Promise.all([load(bytes, 'onnxruntime-web'), load(bytes, 'onnxruntime-node')]);
    const size = 48;
    const { data } = await sharp(path.join(testPhotos, 'jewelry/watch-gold-mesh.jpg'))
      .resize(size, size, { fit: 'cover' })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const input = new Float32Array(3 * size * size);
    for (let i = 0; i < size * size; i += 1)
      for (let c = 0; c < 3; c += 1) input[c * size * size + i] = data[3 * i + c]! / 255;
    const [a, b] = [await web.run(input, [1, 3, size, size]), await node.run(input, [1, 3, size, size])];
    expect(a.dims).toEqual([1, 3, 4 * size, 4 * size]);
    let squared = 0;
    for (let i = 0; i < a.data.length; i += 1) squared += (a.data[i]! - b.data[i]!) ** 2;
    const psnr = 10 * Math.log10(1 / (squared / a.data.length || 1e-12));
    expect(psnr).toBeGreaterThan(40);
  });
});
