/**
 * @jest-environment node
 */
// The model files the tools ship are saved fully optimized at build (build/prepare-assets.js), so the browser's AI
// worker creates their sessions with no graph optimization at all. Here: the files hold the layout onnxruntime
// would otherwise give them on each visit, nothing only an x86 build of onnxruntime can run, and onnxruntime-web's
// WASM build (the browser's runtime) answers as onnxruntime-node does.
import { onnx } from 'onnx-proto';
import { segmentProduct } from '../../src/inference/segmentation';
import { rgbaToPlanar } from '../../src/inference/tensors';
import { suiteModelLoader } from '../support/node-onnx';
import { maskIoU, shippedModelReader, testPhotoPixels, type ToolModelName } from '../support/tool-models';

jest.setTimeout(300_000);

const MODELS: ToolModelName[] = ['segmentation', 'upscaler'];
const load = suiteModelLoader();
const shipped = new Map<ToolModelName, Uint8Array>();
beforeAll(async () => {
  const read = await shippedModelReader();
  for (const model of MODELS) shipped.set(model, await read(model));
});

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
      const image = await testPhotoPixels(photo, 384);
      const [a, b] = [await segmentProduct(image, web.run), await segmentProduct(image, node.run)];
      expect(maskIoU(a.alpha, b.alpha)).toBeGreaterThan(0.99);
    }
  });

  it('upscaler: onnxruntime-web with no graph optimization upscales as onnxruntime-node does', async () => {
    const bytes = shipped.get('upscaler')!;
    const [web, node] = await Promise.all([load(bytes, 'onnxruntime-web'), load(bytes, 'onnxruntime-node')]);
    const image = await testPhotoPixels('jewelry/watch-gold-mesh.jpg', 48);
    const { width, height } = image;
    const input = rgbaToPlanar(image, width, height);
    const dims = [1, 3, height, width];
    const [a, b] = [await web.run(input, dims), await node.run(input, dims)];
    expect(a.dims).toEqual([1, 3, 4 * height, 4 * width]);
    let squared = 0;
    for (let i = 0; i < a.data.length; i += 1) squared += (a.data[i]! - b.data[i]!) ** 2;
    const psnr = 10 * Math.log10(1 / (squared / a.data.length || 1e-12));
    expect(psnr).toBeGreaterThan(40);
  });
});
