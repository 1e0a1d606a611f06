import { inpaint } from '../../src/algorithms/patchmatch-inpaint';
import { seededRandom } from '@productgen/image-algorithms';

/** A striped, noisy texture (period 8 px) with a flat red square "object" in the middle. */
function texturedScene(width: number, height: number, object: { x: number; y: number; size: number }) {
  const random = seededRandom(7);
  const rgba = new Uint8ClampedArray(width * height * 4);
  const mask = new Uint8Array(width * height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = y * width + x;
      const stripe = (x + y) % 8 < 4 ? 60 : 190;
      const inObject = x >= object.x && x < object.x + object.size && y >= object.y && y < object.y + object.size;
      rgba[4 * i] = inObject ? 230 : stripe + random() * 20;
      rgba[4 * i + 1] = inObject ? 20 : stripe + random() * 20;
      rgba[4 * i + 2] = inObject ? 20 : stripe + random() * 20;
      rgba[4 * i + 3] = 255;
      if (inObject) mask[i] = 1;
    }
  }
  return { rgba, mask };
}

function statsOf(rgba: Uint8ClampedArray, width: number, pick: (x: number, y: number) => boolean, height: number) {
  let sum = 0;
  let sumSquares = 0;
  let count = 0;
  let red = 0;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      if (!pick(x, y)) continue;
      const i = 4 * (y * width + x);
      const grey = (rgba[i] + rgba[i + 1] + rgba[i + 2]) / 3;
      sum += grey;
      sumSquares += grey * grey;
      if (rgba[i] > 200 && rgba[i + 1] < 60) red += 1;
      count += 1;
    }
  }
  const mean = sum / count;
  return { mean, std: Math.sqrt(sumSquares / count - mean * mean), red };
}

describe('inpaint (PatchMatch fill)', () => {
  const width = 160;
  const height = 120;
  const object = { x: 60, y: 40, size: 36 };
  const { rgba, mask } = texturedScene(width, height, object);
  const result = inpaint(rgba, width, height, mask, { seed: 3 });
  const inHole = (x: number, y: number) =>
    x >= object.x && x < object.x + object.size && y >= object.y && y < object.y + object.size;
  const ring = (x: number, y: number) =>
    !inHole(x, y) &&
    x >= object.x - 16 &&
    x < object.x + object.size + 16 &&
    y >= object.y - 16 &&
    y < object.y + object.size + 16;

  it('removes the object: no red is left where it was', () => {
    expect(statsOf(rgba, width, inHole, height).red).toBe(object.size * object.size);
    expect(statsOf(result, width, inHole, height).red).toBe(0);
  });

  it('synthesises the surrounding texture, not a flat smear', () => {
    const filled = statsOf(result, width, inHole, height);
    const around = statsOf(rgba, width, ring, height);
    expect(Math.abs(filled.mean - around.mean)).toBeLessThan(15);
    expect(filled.std).toBeGreaterThan(0.7 * around.std);
  });

  it('leaves pixels away from the mask untouched', () => {
    let changedFarAway = 0;
    let changedNear = 0;
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        const i = 4 * (y * width + x);
        const changed = result[i] !== rgba[i] || result[i + 1] !== rgba[i + 1] || result[i + 2] !== rgba[i + 2];
        const near =
          x >= object.x - 4 && x < object.x + object.size + 4 && y >= object.y - 4 && y < object.y + object.size + 4;
        if (changed && near) changedNear += 1;
        if (changed && !near) changedFarAway += 1;
      }
    }
    expect(changedNear).toBeGreaterThan(object.size * object.size * 0.9);
    expect(changedFarAway).toBe(0);
  });

  it('returns an unchanged copy for an empty mask', () => {
    const copy = inpaint(rgba, width, height, new Uint8Array(width * height));
    expect(copy).not.toBe(rgba);
    expect(copy.every((value, index) => value === rgba[index])).toBe(true);
  });
});
