import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { fillHoles, labelRegions, type BinaryMask } from '@productgen/image-algorithms';
import { pick, seededRandom, type RgbImage } from '@productgen/studio-engine/internals';

/*
 * The segmentation benchmark's labelled set, made without hand-labelling: products are cut out of the
 * plain-background catalogue shots in ../shared/photos (exact masks by thresholding the distance to the fitted
 * backdrop), then composited onto real backgrounds cropped from other photos (grass, wood, textiles, gravel, sand;
 * as they are, blurred or darkened; with a drop shadow), plus generated hard cases: several items, white products,
 * thin parts, products in the backdrop's colours (camouflage), an out-of-focus object in the foreground (defocus). The same seed and photos always give the same set; it is written to a git-ignored folder.
 */

export const SET_VERSION = 2;

/** A catalogue shot and the colour distance above which a pixel is product (its backdrop is plain). */
export interface CatalogueShot {
  file: string;
  threshold: number;
  /** The product casts a shadow on the backdrop (which is not product); off for clear products, whose grey parts would be taken for shadow. */
  castShadow?: boolean;
  /** Largest enclosed backdrop region taken as product, as a share of the product (a clear body: all). */
  maxHoleShare?: number;
}

const CATALOGUE: readonly CatalogueShot[] = [
  { file: 'demo/mug.jpg', threshold: 40, castShadow: true },
  { file: 'test/bags/tote-green.jpg', threshold: 30 },
  { file: 'test/furniture/lounge-chair-green.jpg', threshold: 30 },
  { file: 'test/jewelry/watch-gold-mesh.jpg', threshold: 30 },
  { file: 'test/fitness/water-bottle.jpg', threshold: 30, maxHoleShare: 1 },
];

/** A region of another photo that shows only background (fractions of its width and height), chosen by eye. */
interface BackgroundSource {
  name: string;
  file: string;
  region: [left: number, top: number, width: number, height: number];
  light?: boolean;
}

const BACKGROUNDS: readonly BackgroundSource[] = [
  { name: 'grass', file: 'demo/shoes-3.jpg', region: [0, 0.72, 1, 0.28] },
  { name: 'bamboo-floor', file: 'demo/shoes-2.jpg', region: [0, 0, 0.26, 1] },
  { name: 'white-wood', file: 'test/electronics/headphones-black.jpg', region: [0, 0, 0.2, 0.75], light: true },
  { name: 'gravel', file: 'test/toys/rubber-duck.jpg', region: [0, 0.8, 1, 0.2] },
  { name: 'sofa', file: 'test/toys/robot-toy.jpg', region: [0.8, 0, 0.2, 1] },
  { name: 'grey-planks', file: 'test/fitness/boxing-gloves.jpg', region: [0, 0, 0.18, 1] },
  { name: 'rustic-wood', file: 'test/electronics/compact-camera.jpg', region: [0.72, 0.66, 0.28, 0.34] },
  { name: 'sand', file: 'test/kitchen/moka-pot.jpg', region: [0, 0.74, 0.22, 0.26] },
  { name: 'dark-cloth', file: 'test/baby/baby-bodysuit-white.jpg', region: [0, 0, 1, 0.14] },
  { name: 'dark-wood', file: 'demo/mug-3.jpg', region: [0, 0, 0.38, 1] },
  { name: 'teal-wall', file: 'test/home-decor/pendant-lamp.jpg', region: [0.62, 0, 0.38, 1] },
  { name: 'print-fabric', file: 'test/fashion/dress-patterned-hanger.jpg', region: [0.32, 0.4, 0.36, 0.4] },
  { name: 'bokeh', file: 'test/kitchen/teapot-clay.jpg', region: [0, 0, 0.4, 0.3] },
];

export interface SetCase {
  name: string;
  kind: 'composite' | 'several' | 'white' | 'thin' | 'camouflage' | 'defocus';
  /** The composite photo (JPEG) and its exact product mask (PNG, 255 = product), relative to the set's folder. */
  photo: string;
  mask: string;
}

interface Rgba {
  data: Buffer;
  width: number;
  height: number;
}

/** Least-squares fit of a quadratic surface c·[1, x, y, x², xy, y²] to samples (normal equations). */
function fitQuadratic(samples: { x: number; y: number; value: number }[]): number[] {
  const size = 6;
  const matrix = Array.from({ length: size }, () => new Array<number>(size + 1).fill(0));
  for (const { x, y, value } of samples) {
    const features = [1, x, y, x * x, x * y, y * y];
    for (let i = 0; i < size; i += 1) {
      for (let j = 0; j < size; j += 1) matrix[i]![j]! += features[i]! * features[j]!;
      matrix[i]![size]! += features[i]! * value;
    }
  }
  for (let column = 0; column < size; column += 1) {
    let pivot = column;
    for (let row = column + 1; row < size; row += 1)
      if (Math.abs(matrix[row]![column]!) > Math.abs(matrix[pivot]![column]!)) pivot = row;
    [matrix[column], matrix[pivot]] = [matrix[pivot]!, matrix[column]!];
    for (let row = 0; row < size; row += 1) {
      if (row === column) continue;
      const factor = matrix[row]![column]! / (matrix[column]![column]! || 1e-12);
      for (let k = column; k <= size; k += 1) matrix[row]![k]! -= factor * matrix[column]![k]!;
    }
  }
  return matrix.map((row, i) => row[size]! / (row[i]! || 1e-12));
}

/**
 * The exact mask of a product on a plain backdrop: the backdrop is a smooth surface fitted to the frame's border
 * band (a light gradient or vignette), product pixels are those whose colour is further than `threshold` from it;
 * with `castShadow`, shadows (the backdrop uniformly darker) are not product; specks are dropped and holes up to
 * `maxHoleShare` filled (the open space between a bag's handles stays open).
 */
export function catalogueMask(image: RgbImage, shot: Omit<CatalogueShot, 'file'>): BinaryMask {
  const { threshold, castShadow = false, maxHoleShare = 0.01 } = shot;
  const { width, height, data } = image;
  const band = Math.max(2, Math.round(Math.min(width, height) * 0.02));
  const samples: { x: number; y: number; k: number }[] = [];
  for (let y = 0; y < height; y += 2) {
    for (let x = 0; x < width; x += 2) {
      if (x < band || y < band || x >= width - band || y >= height - band)
        samples.push({ x: x / width, y: y / height, k: (y * width + x) * 3 });
    }
  }
  const surfaces = [0, 1, 2].map((c) => fitQuadratic(samples.map((s) => ({ x: s.x, y: s.y, value: data[s.k + c]! }))));
  const mask = new Uint8Array(width * height);
  for (let y = 0; y < height; y += 1) {
    const fy = y / height;
    for (let x = 0; x < width; x += 1) {
      const fx = x / width;
      const features = [1, fx, fy, fx * fx, fx * fy, fy * fy];
      let distance = 0;
      let lowRatio = Infinity;
      let highRatio = 0;
      for (let c = 0; c < 3; c += 1) {
        const backdrop = surfaces[c]!.reduce((sum, coefficient, i) => sum + coefficient * features[i]!, 0);
        const value = data[(y * width + x) * 3 + c]!;
        distance = Math.max(distance, Math.abs(value - backdrop));
        lowRatio = Math.min(lowRatio, value / Math.max(1, backdrop));
        highRatio = Math.max(highRatio, value / Math.max(1, backdrop));
      }
      // A cast shadow is the backdrop's own colour, uniformly darker: not product.
      const shadow = castShadow && lowRatio > 0.55 && highRatio < 1 && highRatio - lowRatio < 0.06;
      if (distance > threshold && !shadow) mask[y * width + x] = 1;
    }
  }
  const { labels, sizes } = labelRegions(mask, width);
  const largest = Math.max(0, ...sizes);
  for (let k = 0; k < mask.length; k += 1) if (mask[k] && sizes[labels[k]!]! < largest * 0.05) mask[k] = 0;
  return fillHoles(mask, width, height, maxHoleShare);
}

async function readRgb(file: string): Promise<RgbImage> {
  const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The product of a catalogue shot as RGBA cropped to its mask's bounds (alpha 0 or 255). */
async function cutCatalogueProduct(photosDir: string, shot: CatalogueShot): Promise<Rgba> {
  const image = await readRgb(path.join(photosDir, shot.file));
  const mask = catalogueMask(image, shot);
  let left = image.width;
  let top = image.height;
  let right = 0;
  let bottom = 0;
  for (let k = 0; k < mask.length; k += 1) {
    if (!mask[k]) continue;
    const x = k % image.width;
    const y = (k - x) / image.width;
    left = Math.min(left, x);
    right = Math.max(right, x + 1);
    top = Math.min(top, y);
    bottom = Math.max(bottom, y + 1);
  }
  const width = right - left;
  const height = bottom - top;
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const source = (top + y) * image.width + left + x;
      image.data.copy(data, (y * width + x) * 4, source * 3, source * 3 + 3);
      data[(y * width + x) * 4 + 3] = mask[source] ? 255 : 0;
    }
  }
  return { data, width, height };
}

async function background(photosDir: string, source: BackgroundSource, width: number, height: number, variant: string) {
  const meta = await sharp(path.join(photosDir, source.file)).metadata();
  const [fl, ft, fw, fh] = source.region;
  let pipeline = sharp(path.join(photosDir, source.file))
    .extract({
      left: Math.round(fl * meta.width!),
      top: Math.round(ft * meta.height!),
      width: Math.round(fw * meta.width!),
      height: Math.round(fh * meta.height!),
    })
    .resize(width, height, { fit: 'cover' });
  if (variant === 'blurred') pipeline = sharp(await pipeline.toBuffer()).blur(Math.max(width, height) / 120);
  if (variant === 'dark') pipeline = pipeline.linear(0.35, 0);
  const { data } = await pipeline.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return data;
}

/** A product resized (alpha-aware) to fit `long` pixels on its long side. */
async function resized(product: Rgba, long: number): Promise<Rgba> {
  const scale = long / Math.max(product.width, product.height);
  const width = Math.max(1, Math.round(product.width * scale));
  const height = Math.max(1, Math.round(product.height * scale));
  const data = await sharp(product.data, { raw: { width: product.width, height: product.height, channels: 4 } })
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  return { data, width, height };
}

/** A product re-lit as a white object: its shading kept, its colour gone (a white candle, white sneakers). */
function whitened(product: Rgba): Rgba {
  const data = Buffer.from(product.data);
  for (let k = 0; k < data.length; k += 4) {
    const luma = 0.299 * data[k]! + 0.587 * data[k + 1]! + 0.114 * data[k + 2]!;
    const value = 205 + (luma / 255) * 45;
    data[k] = Math.min(255, value + 3);
    data[k + 1] = value;
    data[k + 2] = Math.max(0, value - 4);
  }
  return { ...product, data };
}

/** A product pulled towards a colour (the backdrop's): its shading kept, its contrast with the backdrop low. */
function camouflaged(product: Rgba, towards: readonly number[], share: number): Rgba {
  const data = Buffer.from(product.data);
  for (let k = 0; k < data.length; k += 4) {
    for (let c = 0; c < 3; c += 1) data[k + c] = Math.round(data[k + c]! * (1 - share) + towards[c]! * share);
  }
  return { ...product, data };
}

/** A procedural lamp-like object with thin parts: a shade, a stem about 1 % of the frame wide, a flat base. */
function thinObject(size: number, random: () => number): Rgba {
  const width = Math.round(size * (0.45 + random() * 0.2));
  const height = size;
  const stem = Math.max(3, size * (0.012 + random() * 0.01));
  const shadeHeight = height * 0.28;
  const baseHeight = height * 0.05;
  const hue = [random() * 200 + 30, random() * 200 + 30, random() * 200 + 30];
  const data = Buffer.alloc(width * height * 4);
  const samples = 4;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      let covered = 0;
      for (let s = 0; s < samples * samples; s += 1) {
        const px = x + ((s % samples) + 0.5) / samples;
        const py = y + (Math.floor(s / samples) + 0.5) / samples;
        const cx = px - width / 2;
        const inShade = py < shadeHeight && Math.abs(cx) < (width / 2) * (0.45 + (0.55 * py) / shadeHeight);
        const inStem = py >= shadeHeight && py < height - baseHeight && Math.abs(cx) < stem / 2;
        const inBase = py >= height - baseHeight && Math.abs(cx) < width * 0.3;
        if (inShade || inStem || inBase) covered += 1;
      }
      const shading = 0.6 + 0.4 * (1 - Math.abs(x - width / 2) / (width / 2));
      const k = (y * width + x) * 4;
      for (let c = 0; c < 3; c += 1) data[k + c] = Math.round(hue[c]! * shading);
      data[k + 3] = Math.round((covered / (samples * samples)) * 255);
    }
  }
  return { data, width, height };
}

/** Draws products over a background with a soft drop shadow each; returns the photo and the exact mask. */
async function compose(
  backdrop: Buffer,
  width: number,
  height: number,
  items: Placed[],
  shadow: { dx: number; dy: number; strength: number },
  foreground: Placed[] = [],
): Promise<{ rgb: Buffer; mask: Buffer }> {
  const coverage = paint(items, width, height);
  const blur = Math.max(2, Math.min(width, height) / 60);
  const shifted = Buffer.alloc(width * height);
  for (let y = shadow.dy; y < height; y += 1)
    coverage.alpha.copy(
      shifted,
      y * width + shadow.dx,
      (y - shadow.dy) * width,
      (y - shadow.dy + 1) * width - shadow.dx,
    );
  const shadowPlane = await sharp(shifted, { raw: { width, height, channels: 1 } })
    .blur(blur)
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  const front = paint(foreground, width, height);
  const rgb = Buffer.alloc(width * height * 3);
  const mask = Buffer.alloc(width * height);
  for (let k = 0; k < width * height; k += 1) {
    const a = coverage.alpha[k]! / 255;
    const f = front.alpha[k]! / 255;
    const darken = 1 - (shadow.strength * shadowPlane[k]!) / 255;
    for (let c = 0; c < 3; c += 1) {
      const scene = coverage.colour[k * 3 + c]! * a + backdrop[k * 3 + c]! * darken * (1 - a);
      rgb[k * 3 + c] = Math.round(front.colour[k * 3 + c]! * f + scene * (1 - f));
    }
    // The product where it shows: an out-of-focus object in front hides what it covers.
    mask[k] = coverage.alpha[k]! >= 128 && front.alpha[k]! < 128 ? 255 : 0;
  }
  return { rgb, mask };
}

interface Placed {
  product: Rgba;
  left: number;
  top: number;
}

/** Products drawn over each other on a transparent layer: colour (straight) and coverage. */
function paint(items: Placed[], width: number, height: number): { colour: Buffer; alpha: Buffer } {
  const coverage = Buffer.alloc(width * height);
  const colour = Buffer.alloc(width * height * 3);
  for (const { product, left, top } of items) {
    for (let y = 0; y < product.height; y += 1) {
      for (let x = 0; x < product.width; x += 1) {
        const tx = left + x;
        const ty = top + y;
        if (tx < 0 || ty < 0 || tx >= width || ty >= height) continue;
        const source = (y * product.width + x) * 4;
        const a = product.data[source + 3]!;
        const target = ty * width + tx;
        if (a === 0) continue;
        const previous = coverage[target]!;
        const over = a / 255;
        for (let c = 0; c < 3; c += 1)
          colour[target * 3 + c] = Math.round(product.data[source + c]! * over + colour[target * 3 + c]! * (1 - over));
        coverage[target] = Math.round(a + previous * (1 - over));
      }
    }
  }
  return { colour, alpha: coverage };
}

const FRAMES: readonly [number, number][] = [
  [1024, 768],
  [768, 1024],
  [960, 960],
];

type Kind = SetCase['kind'];

/** How many cases of each kind the benchmark's set has. */
export const SET_COUNTS: Readonly<Record<Kind, number>> = {
  composite: 48,
  several: 8,
  white: 8,
  thin: 8,
  camouflage: 8,
  defocus: 8,
};

/**
 * Builds the set into `dir` (photos, masks, cases.json); the same seed, counts and photos give the same files.
 * A test builds a few cases of some kinds (`counts`); the benchmark all of SET_COUNTS.
 */
export async function buildSegmentationSet(
  photosDir: string,
  dir: string,
  { seed = 14, counts = SET_COUNTS }: { seed?: number; counts?: Partial<Record<Kind, number>> } = {},
): Promise<SetCase[]> {
  await mkdir(dir, { recursive: true });
  const random = seededRandom(seed);
  const products = await Promise.all(CATALOGUE.map((shot) => cutCatalogueProduct(photosDir, shot)));
  const cases: SetCase[] = [];
  const between = (low: number, high: number) => low + random() * (high - low);

  async function write(name: string, kind: Kind, width: number, height: number, art: { rgb: Buffer; mask: Buffer }) {
    const photo = `${name}.jpg`;
    const mask = `${name}.mask.png`;
    await sharp(art.rgb, { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 90 })
      .toFile(path.join(dir, photo));
    await sharp(art.mask, { raw: { width, height, channels: 1 } })
      .png()
      .toFile(path.join(dir, mask));
    cases.push({ name, kind, photo, mask });
  }

  const shadowOf = (size: number) => ({
    dx: Math.round(between(0, 0.02) * size),
    dy: Math.round(between(0.005, 0.03) * size),
    strength: between(0.25, 0.6),
  });

  async function scene(
    kind: Kind,
    index: number,
    items: (side: number, backdropMean: number[]) => Promise<Rgba[]>,
    light?: boolean,
    foreground?: (side: number) => Promise<Rgba>,
  ) {
    const [width, height] = pick(FRAMES, random);
    const sources = light === undefined ? BACKGROUNDS : BACKGROUNDS.filter((b) => Boolean(b.light) === light);
    const source = pick(sources, random);
    const variant = pick(['plain', 'plain', 'blurred', 'dark'], random);
    const backdrop = await background(photosDir, source, width, height, light ? 'plain' : variant);
    const side = Math.min(width, height);
    const backdropMean = [0, 1, 2].map((c) => {
      let sum = 0;
      for (let k = c; k < backdrop.length; k += 3) sum += backdrop[k]!;
      return sum / (backdrop.length / 3);
    });
    const pieces = await items(side, backdropMean);
    // Items stand in a row, left to right, each at a random height; the row is centred with a random offset.
    const gap = Math.round(side * between(0.01, 0.05));
    const rowWidth = pieces.reduce((sum, piece) => sum + piece.width, 0) + gap * (pieces.length - 1);
    let left = Math.round((width - rowWidth) * between(0.15, 0.85));
    const placed = pieces.map((product) => {
      const top = Math.round((height - product.height) * between(0.15, 0.85));
      const item = { product, left, top };
      left += product.width + gap;
      return item;
    });
    // An out-of-focus object in front, cut by a bottom corner of the frame.
    const front = foreground && (await foreground(side));
    const corner = random() < 0.5 ? 0 : 1;
    const inFront = front
      ? [
          {
            product: front,
            left: Math.round(corner * width - front.width * (corner ? 0.45 : 0.55)),
            top: height - Math.round(front.height * 0.5),
          },
        ]
      : [];
    const art = await compose(backdrop, width, height, placed, shadowOf(side), inFront);
    const name = `${kind}-${String(index).padStart(2, '0')}-${source.name}-${variant}`;
    await write(name, kind, width, height, art);
  }

  for (let index = 0; index < (counts.composite ?? 0); index += 1) {
    const product = products[index % products.length]!;
    await scene('composite', index, async (side) => [await resized(product, Math.round(side * between(0.35, 0.8)))]);
  }
  for (let index = 0; index < (counts.several ?? 0); index += 1) {
    const product = pick(products, random);
    const count = 2 + Math.floor(random() * 3);
    await scene('several', index, async (side) => {
      const long = Math.round(side * between(0.16, 0.22));
      return Promise.all(Array.from({ length: count }, () => resized(product, long)));
    });
  }
  for (let index = 0; index < (counts.white ?? 0); index += 1) {
    const product = whitened(pick(products, random));
    await scene(
      'white',
      index,
      async (side) => [await resized(product, Math.round(side * between(0.35, 0.7)))],
      index % 2 === 0 ? true : undefined,
    );
  }
  for (let index = 0; index < (counts.thin ?? 0); index += 1) {
    await scene('thin', index, async (side) => [thinObject(Math.round(side * between(0.45, 0.75)), random)]);
  }
  for (let index = 0; index < (counts.camouflage ?? 0); index += 1) {
    const product = pick(products, random);
    const share = between(0.45, 0.65);
    await scene('camouflage', index, async (side, backdropMean) => [
      camouflaged(await resized(product, Math.round(side * between(0.35, 0.7))), backdropMean, share),
    ]);
  }
  for (let index = 0; index < (counts.defocus ?? 0); index += 1) {
    const product = pick(products, random);
    const blurred = pick(products, random);
    await scene(
      'defocus',
      index,
      async (side) => [await resized(product, Math.round(side * between(0.3, 0.5)))],
      undefined,
      async (side) => {
        const near = await resized(blurred, Math.round(side * between(0.6, 0.9)));
        const data = await sharp(near.data, { raw: { width: near.width, height: near.height, channels: 4 } })
          .blur(side / 50)
          .raw()
          .toBuffer();
        return { ...near, data };
      },
    );
  }
  await writeFile(path.join(dir, 'cases.json'), JSON.stringify({ version: SET_VERSION, seed, cases }, null, 2));
  return cases;
}

/** The set in `dir`, built first when it is missing or was built by another version or seed. */
export async function loadSegmentationSet(photosDir: string, dir: string, seed = 14): Promise<SetCase[]> {
  try {
    const stored = JSON.parse(await readFile(path.join(dir, 'cases.json'), 'utf8')) as {
      version: number;
      seed: number;
      cases: SetCase[];
    };
    if (stored.version === SET_VERSION && stored.seed === seed) return stored.cases;
  } catch {
    // not built yet
  }
  return buildSegmentationSet(photosDir, dir, { seed });
}
