import sharp from 'sharp';
import type { StyleRecipe } from '../src/styles';
import { blendLayer, resampleRgb } from '../src/kernels/canvas';
import { placeProduct, renderBackdrop, type ProductSource, renderScene } from '../src/render/compose';
import { closePixelThread } from '../src/threads/pixel-thread';
import { computeLayout, paintScene } from '../src/kernels/scene';
import { SCALE } from '../src/kernels/tiles';
import { upscale4x } from '../src/render/upscale';
import type { InferenceModel } from '../src/models/model-sessions';

// The first task starts the pixel thread (from the sources it compiles its TypeScript on load): generous timeouts.
jest.setTimeout(60_000);
afterAll(() => closePixelThread());

const recipe = (look: string, extra: Partial<StyleRecipe> = {}): StyleRecipe => ({
  look,
  palette: { backdrop: '#e8e4df', surface: '#cfc8c0', accent: '#ffffff' },
  light: { angle: 0, warmth: 0 },
  productScale: 0.6,
  reflection: 0,
  shadow: 0.4,
  seed: 1234,
  ...extra,
});

/** A solid red square product (straight RGBA) with a transparent margin around it. */
function squareProduct(): ProductSource {
  const size = 120;
  const margin = 10;
  const rgba = Buffer.alloc(size * size * 4);
  for (let y = margin; y < size - margin; y += 1) {
    for (let x = margin; x < size - margin; x += 1) rgba.set([200, 30, 40, 255], (y * size + x) * 4);
  }
  return {
    rgba,
    width: size,
    height: size,
    box: { left: margin, top: margin, right: size - margin, bottom: size - margin },
    luminance: 0.3,
  };
}

const luma = (rgb: Buffer, size: number, x: number, y: number) => {
  const k = (y * size + x) * 3;
  return 0.299 * rgb[k]! + 0.587 * rgb[k + 1]! + 0.114 * rgb[k + 2]!;
};

/** An opaque product drawn by `inside(x, y)` on a 200 × 200 transparent canvas whose box is all of it. */
function drawnProduct(inside: (x: number, y: number) => boolean): ProductSource {
  const size = 200;
  const rgba = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) if (inside(x, y)) rgba.set([60, 60, 200, 255], (y * size + x) * 4);
  }
  return { rgba, width: size, height: size, box: { left: 0, top: 0, right: size, bottom: size }, luminance: 0.3 };
}

/** How much the backdrop's shadows darken the bare scene at a point of the product's own pixels (0..200). */
async function shadeUnder(product: ProductSource, points: [number, number][]): Promise<number[]> {
  const size = 512;
  const look = recipe('studio-sweep');
  const layout = computeLayout(look, product.width, product.height, size);
  const scene = await renderScene(look, layout);
  const { rgb } = await renderBackdrop(product, look, size);
  const factor = layout.product.width / product.width;
  return points.map(([x, y]) => {
    const canvasX = Math.round(layout.product.left + x * factor);
    const canvasY = Math.round(layout.product.top + y * factor);
    return luma(scene, size, canvasX, canvasY) - luma(rgb, size, canvasX, canvasY);
  });
}

describe('imaging off the main thread', () => {
  test('a scene painted on the pixel thread is the same, pixel for pixel, as one painted here', async () => {
    const look = recipe('tabletop');
    const layout = computeLayout(look, 100, 100, 256);
    const threaded = await renderScene(look, layout);
    expect(threaded.equals(paintScene(look, layout))).toBe(true);
  });

  test('shadows darken the floor under the product only; the product is drawn over them with its light match', async () => {
    const size = 512;
    const product = squareProduct();
    const look = recipe('studio-sweep');
    const layout = computeLayout(look, 100, 100, size);
    const scene = await renderScene(look, layout);
    const backdrop = await renderBackdrop(product, look, size);
    const { base } = layout;
    const centre = Math.round(layout.product.left + layout.product.width / 2);
    // Just below the contact line, under the product: clearly darker than the bare scene.
    expect(luma(scene, size, centre, base + 2) - luma(backdrop.rgb, size, centre, base + 2)).toBeGreaterThan(20);
    // High above the product and far beside it: the scene untouched.
    for (const [x, y] of [
      [centre, 10],
      [5, base - 40],
    ]) {
      expect(luma(backdrop.rgb, size, x!, y!)).toBe(luma(scene, size, x!, y!));
    }
    const rendered = await placeProduct(backdrop, product, size, { keepPixels: true });
    const { rgb, coverage } = rendered.pixels!;
    const inside = (Math.round(layout.product.top + layout.product.height / 2) * size + centre) * 3;
    const expected = [200, 30, 40].map((value, c) => Math.min(255, Math.round(value * rendered.light.gain[c]!)));
    expect([...rgb.subarray(inside, inside + 3)]).toEqual(expected);
    expect(coverage[inside / 3]).toBe(255);
    expect(coverage[0]).toBe(0);
    // The encoded image is the composed one.
    const decoded = await sharp(rendered.jpeg).raw().toBuffer();
    expect(decoded.length).toBe(size * size * 3);
    expect(Math.abs(decoded[inside]! - rgb[inside]!)).toBeLessThanOrEqual(8);
  });

  test('a leg that ends higher in the picture (further back) has its contact shadow at its own foot', async () => {
    // A seat on two legs seen from above the floor: the left (back) leg ends 20 px higher than the right (front) one.
    const product = drawnProduct(
      (x, y) => (y < 40 && x >= 20 && x < 180) || (x >= 30 && x < 44 && y < 180) || (x >= 156 && x < 170),
    );
    const [underBackFoot, atBaseBelowBackLeg, underFrontFoot] = await shadeUnder(product, [
      [37, 184],
      [37, 203],
      [163, 203],
    ]);
    expect(underBackFoot).toBeGreaterThan(15);
    expect(underFrontFoot).toBeGreaterThan(15);
    // No shadow spot on the floor below the back leg's foot, where nothing stands.
    expect(atBaseBelowBackLeg).toBeLessThan(underBackFoot! / 2);
  });

  test('a product standing on a tip has its shadow gathered under the tip, not spread under its wide middle', async () => {
    const product = drawnProduct((x, y) => Math.abs(x - 100) + Math.abs(y - 100) <= 100);
    // On the floor just below the tip, and as far down beside it, under the lower edge's slant (20 px off the tip).
    const [underTip, besideTip] = await shadeUnder(product, [
      [100, 202],
      [80, 202],
    ]);
    expect(underTip).toBeGreaterThan(15);
    expect(besideTip).toBeLessThan(underTip! / 2);
  });

  test('an image composed in memory used before is the same as one composed in fresh memory', async () => {
    const size = 256;
    const product = squareProduct();
    const render = async (look: StyleRecipe, keepPixels: boolean) =>
      (await placeProduct(await renderBackdrop(product, look, size), product, size, { keepPixels })).jpeg;
    const sweep = recipe('studio-sweep');
    const fresh = await render(sweep, true);
    // Each render without its pixels gives its canvas back: the next one of that size is composed in it.
    const first = await render(sweep, false);
    const other = await render(recipe('dark-premium', { shadow: 0 }), false);
    const again = await render(sweep, false);
    expect(other.equals(first)).toBe(false);
    expect(first.equals(fresh)).toBe(true);
    expect(again.equals(fresh)).toBe(true);
  });

  test('a glossy floor mirrors the product below the contact line, fading with distance', async () => {
    const size = 512;
    const product = squareProduct();
    const glossy = recipe('dark-premium', { reflection: 0.4, shadow: 0 });
    const layout = computeLayout(glossy, 100, 100, size);
    const scene = await renderScene(glossy, layout);
    const backdrop = await renderBackdrop(product, glossy, size);
    const centre = Math.round(layout.product.left + layout.product.width / 2);
    const redness = (rgb: Buffer, y: number) => rgb[(y * size + centre) * 3]! - rgb[(y * size + centre) * 3 + 1]!;
    const near = redness(backdrop.rgb, layout.base + 1) - redness(scene, layout.base + 1);
    const far = redness(backdrop.rgb, layout.base + 25) - redness(scene, layout.base + 25);
    expect(near).toBeGreaterThan(30);
    expect(far).toBeLessThan(near);
    expect(far).toBeGreaterThan(0);
    // Above the contact line the scene is untouched (no shadow in this recipe).
    expect(
      backdrop.rgb.subarray(0, (layout.base - 1) * size * 3).equals(scene.subarray(0, (layout.base - 1) * size * 3)),
    ).toBe(true);
  });

  test('the backdrop is enlarged with aligned pixel centres; the product is blended over it exactly', () => {
    // A horizontal ramp (40 levels a pixel) enlarged 4 → 8: output pixel k samples source position (k + 0.5) / 2 − 0.5.
    const ramp = Uint8Array.from({ length: 4 * 4 * 3 }, (_, k) => 40 * (Math.floor(k / 3) % 4));
    const enlarged = resampleRgb(ramp, 4, 8);
    const row = Array.from({ length: 8 }, (_, x) => enlarged[(3 * 8 + x) * 3]);
    expect(row).toEqual([0, 10, 30, 50, 70, 90, 110, 120]);
    // Opaque: copied; transparent: untouched; half: mixed and rounded. Coverage records the alpha.
    const canvas = new Uint8Array(3 * 3).fill(100);
    const coverage = new Uint8Array(3);
    const layer = Uint8Array.from([200, 10, 20, 255, 200, 10, 20, 0, 200, 10, 20, 128]);
    blendLayer(canvas, 3, { data: layer, width: 3, height: 1, left: 0, top: 0 }, coverage);
    expect([...canvas]).toEqual([200, 10, 20, 100, 100, 100, 150, 55, 60]);
    expect([...coverage]).toEqual([255, 0, 128]);
  });

  test('tiled ×4 upscaling assembles every tile core in place, whatever the tile size', async () => {
    const width = 70;
    const height = 45;
    const data = Buffer.alloc(width * height * 3);
    for (let k = 0; k < width * height; k += 1) data.set([k % 251, (k * 7) % 253, (k * 13) % 255], k * 3);
    // A stand-in model: nearest-neighbour ×4, planar in and out, as Real-ESRGAN's tensors are.
    const nearest: InferenceModel = {
      async run(input, dims) {
        const [, , h, w] = dims as [number, number, number, number];
        const out = new Float32Array(3 * h * w * SCALE * SCALE);
        for (let c = 0; c < 3; c += 1) {
          for (let y = 0; y < h * SCALE; y += 1) {
            for (let x = 0; x < w * SCALE; x += 1) {
              out[(c * h * SCALE + y) * w * SCALE + x] =
                input[(c * h + Math.floor(y / SCALE)) * w + Math.floor(x / SCALE)]!;
            }
          }
        }
        return { data: out, dims: [1, 3, h * SCALE, w * SCALE] };
      },
    };
    for (const tile of [16, 32, 512]) {
      const result = await upscale4x(nearest, { data, width, height }, { tile, overlap: 3 });
      expect([result.width, result.height]).toEqual([width * SCALE, height * SCALE]);
      let wrong = 0;
      for (let y = 0; y < result.height; y += 1) {
        for (let x = 0; x < result.width; x += 1) {
          const source = (Math.floor(y / SCALE) * width + Math.floor(x / SCALE)) * 3;
          const target = (y * result.width + x) * 3;
          for (let c = 0; c < 3; c += 1) if (result.data[target + c] !== data[source + c]) wrong += 1;
        }
      }
      expect(wrong).toBe(0);
    }
  });
});
