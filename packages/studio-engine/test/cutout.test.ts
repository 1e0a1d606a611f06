import { resampleWindow, type FloatPlane } from '@productgen/image-algorithms';
import { catalogueMask, maskIoU } from '@productgen/model-tools';
import type { RgbImage } from '../src/kernels/decode';
import { colourLikelihood, fitColourModel } from '../src/kernels/matte';
import { closeUpRegion, colourRefine, grownCloseUp, productCells, productMatte } from '../src/kernels/cutout';

function floatPlane(width: number, height: number, value: (x: number, y: number) => number): FloatPlane {
  const data = new Float32Array(width * height);
  for (let y = 0; y < height; y += 1) for (let x = 0; x < width; x += 1) data[y * width + x] = value(x, y);
  return { data, width, height };
}

/** A photo painted cell by cell (RGB 0..255). */
function photo(width: number, height: number, paint: (x: number, y: number) => [number, number, number]): RgbImage {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) for (let x = 0; x < width; x += 1) data.set(paint(x, y), (y * width + x) * 3);
  return { data, width, height };
}

const inside = (x: number, y: number, left: number, top: number, right: number, bottom: number) =>
  x >= left && x < right && y >= top && y < bottom;

describe('colour models', () => {
  const samples = (colour: [number, number, number], count: number, spread: number) => {
    const out = new Float32Array(count * 3);
    for (let k = 0; k < count; k += 1)
      for (let c = 0; c < 3; c += 1) out[k * 3 + c] = colour[c]! + spread * Math.sin(k * (c + 1.7));
    return out;
  };

  test('a colour is likelier under the model learnt from its own kind', () => {
    const red = fitColourModel(samples([0.8, 0.1, 0.1], 500, 0.05));
    const grass = fitColourModel(samples([0.2, 0.6, 0.15], 500, 0.08));
    expect(colourLikelihood(red, 0.78, 0.12, 0.1)).toBeGreaterThan(100 * colourLikelihood(grass, 0.78, 0.12, 0.1));
    expect(colourLikelihood(grass, 0.22, 0.55, 0.2)).toBeGreaterThan(100 * colourLikelihood(red, 0.22, 0.55, 0.2));
  });

  test('the fit is deterministic', () => {
    const colours = samples([0.5, 0.5, 0.5], 300, 0.2);
    expect(fitColourModel(colours)).toEqual(fitColourModel(colours));
  });
});

describe('colour refinement and the product cells', () => {
  // A white jar with a salient wooden lid on grass: the segmenter is sure of the lid, unsure of the white body, and
  // wrongly half-sure of a grass patch touching the jar.
  const width = 60;
  const height = 60;
  const lid = (x: number, y: number) => inside(x, y, 20, 10, 40, 18);
  const body = (x: number, y: number) => inside(x, y, 20, 18, 40, 50);
  const touching = (x: number, y: number) => inside(x, y, 40, 30, 48, 50);
  const colours = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const wobble = 0.03 * Math.sin(x * 1.3 + y * 0.7);
      const colour = lid(x, y) ? [0.55, 0.35, 0.2] : body(x, y) ? [0.93, 0.93, 0.9] : [0.25, 0.55, 0.2];
      colour.forEach((value, c) => (colours[(y * width + x) * 3 + c] = value + wobble));
    }
  }
  // Some white cells in the sure product (a label on the lid) so the product's colour model knows white.
  const prior = floatPlane(width, height, (x, y) =>
    lid(x, y) || inside(x, y, 28, 18, 32, 24) ? 0.95 : body(x, y) ? 0.3 : touching(x, y) ? 0.7 : 0.02,
  );
  for (let y = 18; y < 24; y += 1) for (let x = 28; x < 32; x += 1) colours.set([0.93, 0.93, 0.9], (y * width + x) * 3);

  test('the white body is recovered and the grass that touches the product is dropped', () => {
    const belief = colourRefine(colours, prior);
    const at = (x: number, y: number) => belief.data[y * width + x]!;
    expect(at(30, 35)).toBeGreaterThan(0.5);
    expect(at(44, 40)).toBeLessThan(0.5);
    expect(at(5, 5)).toBeLessThan(0.1);
    const { mask: cells } = productCells(belief, prior);
    let body = 0;
    for (let y = 20; y < 48; y += 1) for (let x = 22; x < 38; x += 1) body += cells[y * width + x]!;
    expect(body).toBe(28 * 16);
  });

  test('every item of a row is kept, colour-alike background the segmenter never marked is not', () => {
    const items = [5, 25, 45];
    const salient = floatPlane(70, 30, (x, y) =>
      items.some((left) => inside(x, y, left, 10, left + 12, 22)) ? 0.9 : 0,
    );
    // The belief also marks a lookalike patch at the bottom left that the segmenter gave nothing.
    const belief = floatPlane(70, 30, (x, y) =>
      salient.data[y * 70 + x]! > 0 || inside(x, y, 0, 25, 10, 30) ? 0.9 : 0,
    );
    const { mask: cells, regions } = productCells(belief, salient);
    expect(regions).toBe(3);
    for (const left of items) expect(cells[15 * 70 + left + 6]).toBe(1);
    expect(cells[28 * 70 + 3]).toBe(0);
  });
});

describe('background blobs the segmenter marked beside the product', () => {
  // A blue product with a brown knot of the wooden table touching its side; the segmenter is sure of both.
  const width = 80;
  const height = 50;
  const product = (x: number, y: number) => inside(x, y, 10, 10, 40, 40);
  const knot = (x: number, y: number) => (x - 49) ** 2 + (y - 25) ** 2 < 81;
  const colours = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const grain = 0.06 * Math.sin(y * 0.9 + x * 0.1);
      const colour = product(x, y)
        ? [0.2, 0.3, 0.8]
        : knot(x, y)
          ? [0.45 + grain, 0.28 + grain, 0.15]
          : [0.5 + grain, 0.33 + grain, 0.18];
      colours.set(colour, (y * width + x) * 3);
    }
  }
  const prior = floatPlane(width, height, (x, y) => (product(x, y) || knot(x, y) ? 0.98 : 0.02));

  test('a knot touching the product is dropped, the product kept whole', () => {
    const { mask: cells } = productCells(prior, prior, colours);
    expect(cells[25 * width + 50]).toBe(0);
    let productCellsKept = 0;
    for (let y = 10; y < 40; y += 1) for (let x = 10; x < 40; x += 1) productCellsKept += cells[y * width + x]!;
    expect(productCellsKept).toBe(30 * 30);
  });

  test('without the colours (no evidence), both stay', () => {
    const { mask: cells } = productCells(prior, prior);
    expect(cells[25 * width + 50]).toBe(1);
  });
});

describe('a salient blob beside the product whose colours are neither the product nor the backdrop', () => {
  // Two copies of a blue product and, apart from them, a dark red knot on a pale wooden table: the segmenter is sure of
  // all three. The knot's colours are unlike the table's too, so the colour evidence alone would keep it.
  const width = 100;
  const height = 50;
  const copies = (x: number, y: number) => inside(x, y, 8, 12, 30, 38) || inside(x, y, 38, 12, 60, 38);
  const knot = (x: number, y: number) => (x - 80) ** 2 + (y - 25) ** 2 < 100;
  const colours = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const grain = 0.05 * Math.sin(y * 0.9 + x * 0.2);
      const colour = copies(x, y)
        ? [0.2 + grain, 0.3, 0.8]
        : knot(x, y)
          ? [0.35 + grain, 0.12, 0.08]
          : [0.75 + grain, 0.68 + grain, 0.55];
      colours.set(colour, (y * width + x) * 3);
    }
  }
  const prior = floatPlane(width, height, (x, y) => (copies(x, y) || knot(x, y) ? 0.98 : 0.02));

  test('the knot is dropped, both copies of the product stay', () => {
    const { mask: cells, regions } = productCells(prior, prior, colours);
    expect(cells[25 * width + 80]).toBe(0);
    expect(cells[25 * width + 19]).toBe(1);
    expect(cells[25 * width + 49]).toBe(1);
    expect(regions).toBe(2);
  });

  test('a blob larger than the product that the segmenter is less sure of does not push the product out', () => {
    // The knot grown past the second copy's size and the first copy gone; the segmenter only fairly sure of the knot.
    const bigKnot = (x: number, y: number) => (x - 75) ** 2 + (y - 25) ** 2 < 400;
    const single = (x: number, y: number) => inside(x, y, 38, 12, 52, 38);
    const scene = new Float32Array(colours);
    for (let y = 0; y < height; y += 1)
      for (let x = 0; x < width; x += 1)
        if (bigKnot(x, y)) scene.set([0.35 + 0.05 * Math.sin(y * 0.9 + x * 0.2), 0.12, 0.08], (y * width + x) * 3);
        else if (!single(x, y)) scene.set(colours.subarray(0, 3), (y * width + x) * 3);
    const seen = floatPlane(width, height, (x, y) => (single(x, y) ? 0.98 : bigKnot(x, y) ? 0.8 : 0.02));
    const { mask: cells } = productCells(seen, seen, scene);
    expect(cells[25 * width + 45]).toBe(1);
  });
});

describe('one more look when the product runs out of the close-up', () => {
  // A 400×400 photo, the close-up of its middle (100..300 on both axes) at 320². In the close-up a strap lies
  // diagonally towards the bottom-right corner, leaving through the right side near that corner; the segmenter is
  // sure of it up to 0.86 of the way and fades it below one half before the frame, as it does with what the frame cuts.
  const region = { left: 100, top: 100, width: 200, height: 200 };
  const strap = (x: number, y: number) => Math.abs(y - 0.85 * x) < 10 && x > 40;
  const map = floatPlane(320, 320, (x, y) => (strap(x, y) ? (x <= 275 ? 0.95 : x <= 312 ? 0.4 : 0.05) : 0.02));
  // The whole photo's map (320² over 400×400) at the close-up's cells.
  const wholePhoto = (value: (cx: number, cy: number) => number) =>
    floatPlane(320, 320, (x, y) => value(((x + 0.5) * 1.25 - 100) * 1.6, ((y + 0.5) * 1.25 - 100) * 1.6));

  test('when the whole photo hardly saw the product, the close-up grows towards the corner it heads for', () => {
    const hint = wholePhoto((cx, cy) => (strap(cx, cy) && cx < 100 ? 0.6 : 0.02));
    const grown = grownCloseUp({ region, map }, hint, 400, 400)!;
    expect(grown.left).toBe(100);
    expect(grown.top).toBe(100);
    expect(grown.left + grown.width).toBeGreaterThan(300);
    expect(grown.top + grown.height).toBeGreaterThan(300);
  });

  test('when the whole photo saw the product end there, no more look is taken', () => {
    const seen = wholePhoto((cx, cy) => (strap(cx, cy) && cx <= 275 ? 0.95 : 0.02));
    expect(grownCloseUp({ region, map }, seen, 400, 400)).toBeUndefined();
  });
});

describe('the product matte', () => {
  // A 400×300 photo: a two-tone product (a dark body, a pale cap) on a textured floor.
  const image = photo(400, 300, (x, y) => {
    if (inside(x, y, 150, 80, 250, 110)) return [235, 230, 220];
    if (inside(x, y, 150, 110, 250, 240)) return [60, 40, 120];
    const texture = ((x * 7 + y * 13) % 23) * 2;
    return [150 + texture, 120 + texture, 90];
  });
  const truth = new Uint8Array(400 * 300);
  for (let y = 0; y < 300; y += 1)
    for (let x = 0; x < 400; x += 1) truth[y * 400 + x] = inside(x, y, 150, 80, 250, 240) ? 1 : 0;
  // The segmenter's coarse map: the product, softened, with the pale cap only half seen.
  const coarse = floatPlane(320, 320, (x, y) => {
    const px = (x + 0.5) * (400 / 320);
    const py = (y + 0.5) * (300 / 320);
    if (inside(px, py, 150, 80, 250, 110)) return 0.45;
    return inside(px, py, 150, 110, 250, 240) ? 0.97 : 0.02;
  });

  test('the close-up region holds the product with a margin', () => {
    const region = closeUpRegion(coarse, 400, 300)!;
    expect(region.left).toBeLessThan(150);
    expect(region.left + region.width).toBeGreaterThan(250);
    expect(region.top).toBeLessThan(110);
    expect(region.width * region.height).toBeLessThan(0.7 * 400 * 300);
    expect(
      closeUpRegion(
        floatPlane(320, 320, () => 0.9),
        400,
        300,
      ),
    ).toBeUndefined();
  });

  test('matches the product, its half-seen cap included, with a confident score', () => {
    const region = closeUpRegion(coarse, 400, 300)!;
    const window = {
      left: region.left * 0.8,
      top: (region.top * 320) / 300,
      width: region.width * 0.8,
      height: (region.height * 320) / 300,
    };
    const closeUp = { region, map: resampleWindow(coarse, window, 320, 320) };
    const matte = productMatte(image, coarse, closeUp)!;
    const predicted = Uint8Array.from(matte.alpha.data, (a) => (a >= 0.5 ? 1 : 0));
    expect(maskIoU(predicted, truth)).toBeGreaterThan(0.95);
    expect(matte.confidence).toBeGreaterThan(0.6);
  });

  test('a fragmented, undecided map scores a lower confidence than a clean one', () => {
    const clean = productMatte(image, coarse)!;
    const scattered = floatPlane(320, 320, (x, y) =>
      ((x >> 3) + (y >> 3)) % 3 === 0 && x > 100 && x < 220 ? 0.6 : 0.3,
    );
    const fragmented = productMatte(image, scattered);
    expect(fragmented === undefined || fragmented.confidence < clean.confidence - 0.2).toBe(true);
  });
});

describe('benchmark labels', () => {
  test('a product on a lit backdrop is masked exactly, its cast shadow left out', () => {
    const image = photo(200, 160, (x, y) => {
      const backdrop = 225 + Math.round((x / 200) * 20 - (y / 160) * 10);
      if (inside(x, y, 60, 40, 140, 120)) return [30, 30, 35];
      if (inside(x, y, 140, 60, 165, 125))
        return [backdrop * 0.75, backdrop * 0.75, backdrop * 0.75].map(Math.round) as [number, number, number];
      return [backdrop, backdrop, backdrop - 3];
    });
    const exact = Uint8Array.from({ length: 200 * 160 }, (_, k) =>
      inside(k % 200, Math.floor(k / 200), 60, 40, 140, 120) ? 1 : 0,
    );
    expect(maskIoU(catalogueMask(image, { threshold: 30, castShadow: true }), exact)).toBe(1);
  });
});
