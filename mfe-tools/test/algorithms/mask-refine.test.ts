import { refineMask } from '../../src/algorithms/mask-refine';

describe('refineMask', () => {
  // A 200×200 photo: a dark disc (the product, with a light hole-like spot the model misses) on a light
  // background; the model mask is a blurry, shifted 20×20 version of the disc plus a speck in a corner.
  const size = 200;
  const rgba = new Uint8ClampedArray(size * size * 4);
  const inDisc = (x: number, y: number) => (x - 100) ** 2 + (y - 100) ** 2 < 60 ** 2;
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      const i = 4 * (y * size + x);
      const value = inDisc(x, y) ? 40 : 220;
      rgba.set([value, value, value + 10, 255], i);
    }
  }
  const model = new Float32Array(20 * 20);
  for (let y = 0; y < 20; y += 1) {
    for (let x = 0; x < 20; x += 1) {
      const distance = Math.hypot(x * 10 + 5 - 103, y * 10 + 5 - 100);
      model[y * 20 + x] = 1 / (1 + Math.exp((distance - 60) / 8));
    }
  }
  model[10 * 20 + 10] = 0.1; // a hole inside the product
  model[1 * 20 + 1] = 0.9; // a speck on the background
  const alpha = refineMask(rgba, size, size, model, 20, 20);
  const at = (x: number, y: number) => alpha[y * size + x];

  it('is opaque inside the product (holes filled) and transparent outside (specks dropped)', () => {
    expect(at(100, 100)).toBe(255);
    expect(at(15, 15)).toBe(0);
    expect(at(0, 0)).toBe(0);
    expect(at(199, 199)).toBe(0);
  });

  it('puts the edge on the photo edge, not on the shifted model edge (no halo)', () => {
    // Along the row through the centre, the first opaque-ish pixel is where the photo's disc starts (x = 41).
    const row = Array.from({ length: size }, (_, x) => at(x, 100));
    const firstInside = row.findIndex((value) => value >= 128);
    const lastInside = size - 1 - [...row].reverse().findIndex((value) => value >= 128);
    expect(Math.abs(firstInside - 41)).toBeLessThanOrEqual(1);
    expect(Math.abs(lastInside - 159)).toBeLessThanOrEqual(1);
  });
});
