import { boxMean, type FloatPlane } from '@productgen/image-algorithms';
import { estimateForeground } from '../src/kernels/matte';

/**
 * The estimator by its definition: every pass blurs whole planes of the foreground and background estimates
 * (`boxMean`, `repeat` edges) and moves every pixel's estimates. `estimateForeground` reads summed-area tables only
 * where an answer is needed; it must give the same bytes, to float rounding.
 */
function estimateByWholePlanes(rgb: Uint8Array, alpha: FloatPlane, radii: readonly number[]): Uint8Array {
  const { width, height } = alpha;
  const n = width * height;
  const a = alpha.data;
  const oneMinus = Float32Array.from(a, (value) => 1 - value);
  const photo = [0, 1, 2].map((c) => Float32Array.from({ length: n }, (_, k) => rgb[k * 3 + c]! / 255));
  const foreground = photo.map((channel) => channel.slice());
  const background = photo.map((channel) => channel.slice());
  for (const radius of radii) {
    const blur = (plane: Float32Array) => boxMean(plane, width, height, radius, 'repeat');
    const weightF = blur(a);
    const weightB = blur(oneMinus);
    for (let c = 0; c < 3; c += 1) {
      const F = foreground[c]!;
      const B = background[c]!;
      const I = photo[c]!;
      const blurF = blur(F.map((value, k) => value * a[k]!));
      const blurB = blur(B.map((value, k) => value * oneMinus[k]!));
      for (let k = 0; k < n; k += 1) {
        const f = weightF[k]! > 1e-5 ? blurF[k]! / weightF[k]! : I[k]!;
        const b = weightB[k]! > 1e-5 ? blurB[k]! / weightB[k]! : I[k]!;
        const residual = I[k]! - a[k]! * f - (1 - a[k]!) * b;
        F[k] = Math.min(1, Math.max(0, f + a[k]! * residual));
        B[k] = Math.min(1, Math.max(0, b + (1 - a[k]!) * residual));
      }
    }
  }
  return Uint8Array.from({ length: n * 3 }, (_, i) =>
    a[Math.floor(i / 3)]! >= 0.999 ? rgb[i]! : Math.round(foreground[i % 3]![Math.floor(i / 3)]! * 255),
  );
}

/** A deterministic pseudo-random sequence (mulberry32), so the scenes are the same on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A red product (an ellipse with a soft edge `softness` pixels wide) in front of a noisy green background, as a
 * photo's pixels mix the two along the product's outline. The product may run off the frame.
 */
function scene(width: number, height: number, centre: [number, number], radius: number, softness: number) {
  const next = random(width * 31 + height);
  const alpha: FloatPlane = { data: new Float32Array(width * height), width, height };
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const k = y * width + x;
      const distance = Math.hypot((x - centre[0]) / 1.3, y - centre[1]) - radius;
      const a = Math.min(1, Math.max(0, 0.5 - distance / softness));
      alpha.data[k] = a;
      const product = [200 + 40 * next(), 20 + 30 * next(), 30];
      const backdrop = [30 + 40 * next(), 150 + 60 * next(), 40 + 30 * next()];
      for (let c = 0; c < 3; c += 1) rgb[k * 3 + c] = Math.round(a * product[c]! + (1 - a) * backdrop[c]!);
    }
  }
  return { rgb, alpha };
}

function differences(actual: Uint8Array, expected: Uint8Array): { count: number; largest: number } {
  let count = 0;
  let largest = 0;
  for (let i = 0; i < actual.length; i += 1) {
    const difference = Math.abs(actual[i]! - expected[i]!);
    if (difference > 0) count += 1;
    largest = Math.max(largest, difference);
  }
  return { count, largest };
}

describe('estimateForeground (the soft edge freed of the old background)', () => {
  test.each([
    ['a product inside the frame, the default passes', 180, 140, [90, 70], 45, 6, [24, 4]],
    ['a product running off the frame (the boxes repeat the border)', 150, 120, [10, 115], 60, 8, [24, 4]],
    ['one pass', 90, 70, [45, 35], 20, 5, [3]],
    ['three passes, the middle one large', 120, 100, [60, 50], 30, 7, [6, 12, 2]],
  ] as const)(
    '%s: the same bytes as blurring whole planes',
    (_name, width, height, centre, radius, softness, radii) => {
      const { rgb, alpha } = scene(width, height, [centre[0], centre[1]], radius, softness);
      const expected = estimateByWholePlanes(rgb, alpha, radii);
      const { count, largest } = differences(estimateForeground(rgb, alpha, radii), expected);
      // Float rounding may move a value that lands on a half-step of 255 by one, on a handful of bytes at most.
      expect(largest).toBeLessThanOrEqual(1);
      expect(count).toBeLessThanOrEqual(Math.ceil(expected.length * 1e-4));
    },
  );

  test('opaque pixels are kept; the soft edge takes the product’s colour, not the background’s', () => {
    const width = 160;
    const height = 120;
    const { rgb, alpha } = scene(width, height, [80, 60], 40, 10);
    const freed = estimateForeground(rgb, alpha);
    let edgePixels = 0;
    let greenBefore = 0;
    let greenAfter = 0;
    for (let k = 0; k < width * height; k += 1) {
      const a = alpha.data[k]!;
      if (a >= 0.999) expect([...freed.subarray(k * 3, k * 3 + 3)]).toEqual([...rgb.subarray(k * 3, k * 3 + 3)]);
      if (a > 0.2 && a < 0.6) {
        edgePixels += 1;
        greenBefore += rgb[k * 3 + 1]!;
        greenAfter += freed[k * 3 + 1]!;
      }
    }
    expect(edgePixels).toBeGreaterThan(100);
    // The product's green is ~35 and the background's ~180: half-covered pixels mix them (~110) until freed.
    expect(greenBefore / edgePixels).toBeGreaterThan(90);
    expect(greenAfter / edgePixels).toBeLessThan(60);
  });
});
