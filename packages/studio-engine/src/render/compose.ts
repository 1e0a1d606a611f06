import sharp from 'sharp';
import type { Overlay } from '../kernels/canvas';
import { raw, scaledProduct, type LightMatch, type Placed, type ProductSource } from '../kernels/compose-image';
import { alphaChannel } from '../kernels/detail';
import type { MarketplaceCheck } from '../kernels/marketplace';
import { computeLayout, type Layout } from '../kernels/scene';
import { MARKETPLACE_LOOK, type StyleRecipe } from '../styles';
import { pixelThread } from '../threads/pixel-thread';
import { asBuffer } from '../threads/shared-memory';

/*
 * The main thread's part of rendering an image: the backdrop of each variation (libvips) and the request that has
 * the pixel thread compose and encode it (kernels/compose-image.ts).
 */

export type { LightMatch, ProductSource };

export interface Rendered {
  jpeg: Buffer;
  width: number;
  height: number;
  /** The composed pixels and the product alpha on the canvas (0..255), when they were asked for (`keepPixels`). */
  pixels?: { rgb: Buffer; coverage: Uint8Array };
  layout: Layout;
  light: LightMatch;
  /** Where the product buffer (scaled) was placed: canvas = scaled product shifted by this. */
  placement: { left: number; top: number; width: number; height: number };
  /** The marketplace rule on the composed pixels, when it was asked for. */
  marketplace?: MarketplaceCheck;
}

/**
 * The only change a product's pixels get: one gain per channel (scene warmth plus a mild exposure correction of a
 * dark or washed-out photo). Bounded so the product's own colours stay its own.
 */
export function lightMatchFor(recipe: StyleRecipe, luminance: number): LightMatch {
  const exposure = luminance < 0.3 ? Math.min(1.12, 0.36 / Math.max(luminance, 0.05)) : luminance > 0.82 ? 0.97 : 1;
  const warmth = recipe.look === 'marketplace-white' ? 0 : recipe.light.warmth;
  return {
    gain: [exposure * (1 + 0.03 * warmth), exposure, exposure * (1 - 0.035 * warmth)],
    offset: [0, 0, 0],
  };
}

const alphaOf = (layer: Placed) => alphaChannel(layer.data, layer.width, layer.height);

/** Product alpha laid onto the canvas: one row copy per row, no per-pixel work. */
function coverageOf(alpha: Buffer, layer: Placed, size: number): Uint8Array {
  const coverage = new Uint8Array(size * size);
  const x0 = Math.max(0, layer.left);
  const x1 = Math.min(size, layer.left + layer.width);
  if (x1 <= x0) return coverage;
  for (let y = Math.max(0, layer.top); y < Math.min(size, layer.top + layer.height); y += 1) {
    const row = (y - layer.top) * layer.width - layer.left;
    coverage.set(alpha.subarray(row + x0, row + x1), y * size + x0);
  }
  return coverage;
}

/** The Gaussian the three box passes of the old JS blur amounted to (variance r(r+1) for radius r). */
function shadowSigma(sigma: number): number {
  const radius = Math.max(1, Math.round(sigma * 0.9));
  return Math.sqrt(radius * (radius + 1));
}

/**
 * libvips' integer Gaussian (its SIMD path): within 1 level of the float one at the shadows' sigmas (12–25 quarter
 * pixels; 3 at sigma 3) and ~7–10× faster there (a 512² plane at sigma 25: 39 → 3.4 ms).
 */
function blurPlane(plane: Uint8Array, size: number, sigma: number): Promise<Buffer> {
  return sharp(plane, raw(size, size, 1))
    .blur({ sigma: shadowSigma(sigma), precision: 'integer' })
    .toColourspace('b-w')
    .raw()
    .toBuffer();
}

/** The shadows' plane is made at this fraction of the canvas's resolution (they are soft). */
const SHADOW_SCALE = 4;
/** The product's lowest share of its height: a column whose visible part ends in it stands on the floor there. */
const FOOTPRINT_SHARE = 0.15;
/** Quarter-resolution coverage from which a column counts as the product (thin legs average down to ~0.3). */
const VISIBLE_COVERAGE = 0.25;
/** Drop shadow of the parts high above the floor (a terrarium's sides over its tip, a seat over its legs). */
const OVERHANG_SHADE = 0.5;
/** A column's drop shadow fades (down to OVERHANG_SHADE) as its lowest point rises by this share of the height. */
const OVERHANG_LIFT = 0.5;
/** A foot is the lowest point of the outline within this share of the product's width either side. */
const FOOT_NEIGHBOURHOOD = 0.06;

/**
 * Where the product meets the floor, column by column at quarter resolution. A part stands on the floor where its
 * outline's lowest point is: a foot, a tip or a flat base, the lowest visible row within its neighbourhood (a chair's
 * back legs end higher in the picture than its front ones: perspective); the slanted lower edges between them do not.
 * Such a foot is in the product's lowest share of its height. Also how much of each column's drop shadow shows.
 */
function floorContact(quarter: Buffer, size: number, layout: Layout, contactDepth: number) {
  const { product } = layout;
  const scale = SHADOW_SCALE;
  const base = layout.base / scale;
  const height = product.height / scale;
  const footprintTop = base - height * FOOTPRINT_SHARE;
  const rowFrom = Math.max(0, Math.floor(product.top / scale));
  const rowTo = Math.min(size, Math.ceil((product.top + product.height) / scale));
  const columnFrom = Math.max(0, Math.floor(product.left / scale));
  const columnTo = Math.min(size, Math.ceil((product.left + product.width) / scale));
  // The row below each column's lowest visible pixel (-1: none), and the column's drop shadow: its silhouette's
  // strength, less where the column ends high above the floor (its shadow would not read under the product).
  const bottoms = new Float32Array(size).fill(-1);
  const nearFloor = new Float32Array(size);
  for (let x = columnFrom; x < columnTo; x += 1) {
    let silhouette = 0;
    for (let y = rowFrom; y < rowTo; y += 1) {
      const a = quarter[y * size + x]! / 255;
      if (a >= VISIBLE_COVERAGE) bottoms[x] = y + 1;
      silhouette = Math.max(silhouette, a);
    }
    const lift = bottoms[x]! < 0 ? Infinity : (base - bottoms[x]!) / (height * OVERHANG_LIFT);
    nearFloor[x] = silhouette * Math.max(OVERHANG_SHADE, Math.exp(-lift * lift));
  }
  const feet = new Float32Array(size).fill(base);
  const footprint = new Float32Array(size);
  const reach = Math.max(2, Math.round((product.width / scale) * FOOT_NEIGHBOURHOOD));
  let highestFoot = base;
  for (let x = columnFrom; x < columnTo; x += 1) {
    const bottom = bottoms[x]!;
    if (bottom < footprintTop) continue;
    let lowest = bottom;
    for (let k = Math.max(columnFrom, x - reach); k <= Math.min(columnTo - 1, x + reach); k += 1) {
      lowest = Math.max(lowest, bottoms[k]!);
    }
    if (bottom < lowest - Math.max(1, contactDepth / 2)) continue;
    feet[x] = Math.min(base, bottom);
    highestFoot = Math.min(highestFoot, feet[x]!);
    for (let y = Math.max(rowFrom, Math.floor(footprintTop)); y < rowTo; y += 1) {
      footprint[x] = Math.max(footprint[x]!, quarter[y * size + x]! / 255);
    }
  }
  return { feet, footprint, nearFloor, highestFoot };
}

/** The contact shadow's reach above and below a foot, in quarter pixels. */
function contactDepthOf(layout: Layout): number {
  return Math.max(1.5, (layout.product.width / SHADOW_SCALE) * 0.035);
}

/**
 * Shadows that ground the product, made at quarter resolution (they are soft): a dark contact shadow under each
 * part that stands on the floor, at that part's own foot (legs, a tip, a base), and a wide, faint drop shadow cast
 * away from the key light from the product's silhouette, strongest where the product is near the floor. The answer
 * is an RGB multiplier layer (255 = no shade) for libvips' multiply blend, and the canvas row it starts at; the
 * per-pixel work on the canvas (blur, upsampling, blending) is libvips', only the small quarter plane is filled here.
 */
async function shadowLayer(
  coverage: Uint8Array,
  layout: Layout,
  recipe: StyleRecipe,
): Promise<{ data: Buffer; top: number }> {
  const scale = SHADOW_SCALE;
  const canvas = layout.size;
  const size = Math.ceil(canvas / scale);
  const { product } = layout;
  // Coverage at quarter resolution (block means): the columns' feet, footprint and silhouette are read from it.
  const quarter = await sharp(coverage, raw(canvas, canvas, 1))
    .resize(size, size, { kernel: 'linear' })
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  const contactDepth = contactDepthOf(layout);
  const { feet, footprint, nearFloor, highestFoot } = floorContact(quarter, size, layout, contactDepth);
  const base = layout.base / scale;
  const dropDepth = Math.max(3, (product.height / scale) * 0.12);
  const skew = Math.tan((-recipe.light.angle * Math.PI) / 180) * 0.8;
  // No shade above the product's lower part (its highest foot, less the contact shadow's reach): the blurs must not
  // darken the product's surroundings.
  const firstRow = Math.max(0, Math.floor(Math.min(base - product.width / scale / 10, highestFoot - 3 * contactDepth)));
  const contact = new Uint8Array(size * size);
  const drop = new Uint8Array(size * size);
  for (let y = firstRow; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      const below = y - feet[x]!;
      contact[y * size + x] = Math.round(255 * footprint[x]! * Math.exp(-((below / contactDepth) ** 2)));
      // The drop shadow falls from where the product meets the floor; its shift grows with the distance.
      const sourceX = Math.round(x - Math.max(0, y - base) * skew);
      if (sourceX < 0 || sourceX >= size) continue;
      const fromFoot = y - feet[sourceX]!;
      const dropFall = fromFoot < 0 ? Math.exp(-((fromFoot / contactDepth) ** 2)) : Math.exp(-fromFoot / dropDepth);
      drop[y * size + x] = Math.round(255 * nearFloor[sourceX]! * dropFall);
    }
  }
  const [tight, soft] = await Promise.all([
    blurPlane(contact, size, Math.max(1, contactDepth * 0.8)),
    blurPlane(drop, size, Math.max(2, dropDepth * 0.9)),
  ]);
  const multiplier = Buffer.alloc(size * size * 3, 255);
  for (let k = firstRow * size; k < size * size; k += 1) {
    const shade = Math.min(0.9, (recipe.shadow * (0.55 * soft[k]! + 1.1 * tight[k]!)) / 255);
    if (shade <= 0.002) continue;
    multiplier[k * 3] = Math.round(255 * (1 - shade));
    multiplier[k * 3 + 1] = multiplier[k * 3]!;
    multiplier[k * 3 + 2] = Math.round(255 * (1 - shade * 0.96));
  }
  const top = firstRow * scale;
  const data = await sharp(multiplier, raw(size, size, 3))
    .resize(canvas, canvas, { kernel: 'linear' })
    .extract({ left: 0, top, width: canvas, height: canvas - top })
    .raw()
    .toBuffer();
  return { data, top };
}

/**
 * Mirror image of the product on a glossy floor, fading with distance from the contact line: the product's rows
 * above the base, flipped, their alpha scaled by the fade ramp (libvips' dest-in blend), laid over the floor.
 */
async function reflectionLayer(scaled: Placed, layout: Layout, recipe: StyleRecipe): Promise<Placed | undefined> {
  const size = layout.size;
  const depth = Math.max(1, Math.round(layout.product.height * 0.35));
  // Row d below the base mirrors source row base - 1 - d (in the scaled product's rows).
  const sourceRow = (d: number) => layout.base - 1 - d - scaled.top;
  let first = 0;
  while (first < depth && sourceRow(first) >= scaled.height) first += 1;
  let last = Math.min(depth, size - layout.base);
  while (last > first && sourceRow(last - 1) < 0) last -= 1;
  if (last <= first) return undefined;
  const rows = last - first;
  const ramp = Buffer.alloc(scaled.width * rows * 4);
  for (let row = 0; row < rows; row += 1) {
    const d = first + row;
    const strength = Math.min(1, recipe.reflection * (1 - d / depth) ** 2);
    ramp.fill(Math.round(255 * strength), row * scaled.width * 4, (row + 1) * scaled.width * 4);
  }
  const data = await sharp(scaled.data, raw(scaled.width, scaled.height, 4))
    .extract({ left: 0, top: sourceRow(last - 1), width: scaled.width, height: rows })
    .flip()
    .composite([{ input: ramp, ...raw(scaled.width, rows, 4), blend: 'dest-in' }])
    .raw()
    .toBuffer();
  return { data, width: scaled.width, height: rows, left: scaled.left, top: layout.base + first };
}

/**
 * The scene behind the product at the canvas size: a procedural backdrop per look, lit by a soft key light
 * from the recipe's angle with a gentle vignette, and fine grain so gradients never band. Marketplace white is
 * exactly #FFFFFF everywhere. The procedural looks are painted on the pixel thread.
 */
export async function renderScene(recipe: StyleRecipe, layout: Layout): Promise<Buffer> {
  if (recipe.look === 'marketplace-white') return Buffer.alloc(layout.size * layout.size * 3, 255);
  return asBuffer(await pixelThread.run('paintScene', [recipe, layout]));
}

/** Everything behind the product (scene, shadows, reflection) for one variation at one size. */
export interface Backdrop {
  rgb: Buffer;
  size: number;
  layout: Layout;
  recipe: StyleRecipe;
  /** Every pixel is #FFFFFF (marketplace white): any size of it is made without resampling. */
  white?: boolean;
  /**
   * The product as the shadows and reflection were made from it, scaled for this backdrop's layout: the image at
   * the backdrop's own size (the base image) takes it instead of scaling the product again (~16 ms of lanczos3).
   */
  scaled?: { product: ProductSource; layer: Placed };
}

function layoutFor(product: ProductSource, recipe: StyleRecipe, size: number): Layout {
  return computeLayout(recipe, product.box.right - product.box.left, product.box.bottom - product.box.top, size);
}

/**
 * The backdrop of a variation: scene, grounding shadows, and the floor reflection on glossy looks. It is made
 * once per variation (at the preview size) and scaled for the finished image: a studio backdrop is out of focus,
 * so nothing is lost, and the product on top is always drawn at full resolution.
 */
export async function renderBackdrop(product: ProductSource, recipe: StyleRecipe, size: number): Promise<Backdrop> {
  const layout = layoutFor(product, recipe, size);
  const scene = await renderScene(recipe, layout);
  if (recipe.shadow <= 0 && recipe.reflection <= 0) {
    return { rgb: scene, size, layout, recipe, white: recipe.look === MARKETPLACE_LOOK };
  }
  const scaled = await scaledProduct(product, layout);
  // Shadows and reflection only touch the floor: libvips blends that band of rows, which is copied back in one go.
  const shade =
    recipe.shadow > 0 ? await shadowLayer(coverageOf(await alphaOf(scaled), scaled, size), layout, recipe) : undefined;
  const bandTop = Math.min(shade?.top ?? size, layout.base);
  const layers: sharp.OverlayOptions[] = [];
  if (shade) {
    layers.push({
      input: shade.data,
      ...raw(size, size - shade.top, 3),
      blend: 'multiply',
      left: 0,
      top: shade.top - bandTop,
    });
  }
  const reflection = recipe.reflection > 0 ? await reflectionLayer(scaled, layout, recipe) : undefined;
  if (reflection) {
    layers.push({
      input: reflection.data,
      ...raw(reflection.width, reflection.height, 4),
      left: reflection.left,
      top: reflection.top - bandTop,
    });
  }
  const band = await sharp(scene, raw(size, size, 3))
    .extract({ left: 0, top: bandTop, width: size, height: size - bandTop })
    .composite(layers)
    .removeAlpha()
    .raw()
    .toBuffer();
  scene.set(band, bandTop * size * 3);
  return { rgb: scene, size, layout, recipe, scaled: { product, layer: scaled } };
}

export interface PlaceOptions {
  /** Marketplace white: the rule is checked on the composed pixels (before the watermark). */
  checkWhite?: boolean;
  /** The free tier's watermark overlay for this size (`watermarkOverlay`). */
  watermark?: Overlay;
  /** JPEG quality of the encoded image. */
  jpegQuality?: number;
  /** Also send back the composed pixels and the product's coverage (tests and inspection; the service stores the JPEG). */
  keepPixels?: boolean;
}

/**
 * Draws the product over a backdrop at `size` (the backdrop is resampled when it was made at another size), checks
 * the marketplace rule when asked, lays the watermark over it and encodes the JPEG. The product is scaled by libvips
 * (lanczos3) when its layout needs it; the rest, its light match included, is integer per-pixel work (see canvas.ts
 * for why). All of it runs on the pixel thread. Inside the product's mask the only change is the global light match.
 */
export async function placeProduct(
  backdrop: Backdrop,
  product: ProductSource,
  size: number,
  options: PlaceOptions = {},
): Promise<Rendered> {
  const { recipe } = backdrop;
  const layout = layoutFor(product, recipe, size);
  const light = lightMatchFor(recipe, product.luminance);
  const made = backdrop.scaled;
  const reuse = made?.product === product && backdrop.size === size;
  // The backdrop's scaled product is handed over below, so it serves one image (the base image) only.
  if (reuse) backdrop.scaled = undefined;
  const own = reuse && made.layer.data !== product.rgba;
  const image = await pixelThread.run(
    'composeImage',
    [
      {
        backdrop: backdrop.white ? undefined : backdrop.rgb,
        backdropSize: backdrop.size,
        size,
        // The upscaled product is shared memory: the pixel thread reads it where it is.
        product: reuse ? { layer: made.layer } : { source: product, layout },
        // The light match is applied as the product is drawn (a table per channel), not by a libvips pass over it.
        light,
        checkWhite: options.checkWhite ?? false,
        watermark: options.watermark,
        jpegQuality: options.jpegQuality ?? 90,
        keepPixels: options.keepPixels ?? false,
      },
    ],
    // A scaled product made here is this call's own: handed over, not copied.
    own ? [made.layer.data.buffer as ArrayBuffer] : [],
  );
  return {
    jpeg: asBuffer(image.jpeg),
    width: size,
    height: size,
    pixels: image.pixels && { rgb: asBuffer(image.pixels.rgb), coverage: image.pixels.coverage },
    marketplace: image.marketplace,
    layout,
    light,
    placement: image.placement,
  };
}
