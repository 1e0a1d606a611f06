import sharp from 'sharp';
import type { StyleRecipe } from '../domain/styles';
import { gaussianBlur } from './raster';
import { computeLayout, renderScene, type Layout } from './scene';

/** A cut-out product (straight RGBA) with its tight box inside the buffer. */
export interface ProductSource {
  rgba: Buffer;
  width: number;
  height: number;
  box: { left: number; top: number; right: number; bottom: number };
  /** Mean luminance of the solid product (0..1). */
  luminance: number;
}

/** The global light match applied to the product: out = in × gain + offset, per channel. Nothing else. */
export interface LightMatch {
  gain: [number, number, number];
  offset: [number, number, number];
}

export interface Rendered {
  rgb: Buffer;
  width: number;
  height: number;
  /** Product alpha on the canvas (0..255): where product pixels are. */
  coverage: Uint8Array;
  layout: Layout;
  light: LightMatch;
  /** Where the product buffer (scaled) was placed: canvas = scaled product shifted by this. */
  placement: { left: number; top: number; width: number; height: number };
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

/** Scales the product (premultiplied resampling, so transparent pixels never bleed into the edge). */
async function scaledProduct(product: ProductSource, layout: Layout) {
  const boxWidth = product.box.right - product.box.left;
  const boxHeight = product.box.bottom - product.box.top;
  const sx = layout.product.width / boxWidth;
  const sy = layout.product.height / boxHeight;
  const width = Math.max(1, Math.round(product.width * sx));
  const height = Math.max(1, Math.round(product.height * sy));
  const data = await sharp(product.rgba, { raw: { width: product.width, height: product.height, channels: 4 } })
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  const left = Math.round(layout.product.left - product.box.left * sx);
  const top = Math.round(layout.product.top - product.box.top * sy);
  return { data, width, height, left, top };
}

/** Product alpha laid onto the canvas. */
function coverageOf(scaled: { data: Buffer; width: number; height: number; left: number; top: number }, size: number) {
  const coverage = new Uint8Array(size * size);
  for (let y = 0; y < scaled.height; y += 1) {
    const cy = scaled.top + y;
    if (cy < 0 || cy >= size) continue;
    for (let x = 0; x < scaled.width; x += 1) {
      const cx = scaled.left + x;
      if (cx < 0 || cx >= size) continue;
      coverage[cy * size + cx] = scaled.data[(y * scaled.width + x) * 4 + 3]!;
    }
  }
  return coverage;
}

/**
 * Shadows that ground the product, at quarter resolution (they are soft): a dark contact shadow under the
 * product's footprint (the width of its lowest rows) and a wide, faint drop shadow cast away from the key light.
 */
function shadowMap(coverage: Uint8Array, layout: Layout, recipe: StyleRecipe): { map: Float32Array; scale: number } {
  const scale = 4;
  const size = Math.ceil(layout.size / scale);
  const { product } = layout;
  const footprintTop = product.top + product.height * 0.85;
  const footprint = new Float32Array(size);
  const silhouette = new Float32Array(size);
  for (let y = Math.max(0, product.top); y < Math.min(layout.size, product.top + product.height); y += 1) {
    const low = y >= footprintTop;
    for (let x = Math.max(0, product.left); x < Math.min(layout.size, product.left + product.width); x += 1) {
      const a = coverage[y * layout.size + x]! / 255;
      if (a === 0) continue;
      const column = Math.floor(x / scale);
      if (low && a > footprint[column]!) footprint[column] = a;
      if (a > silhouette[column]!) silhouette[column] = a;
    }
  }
  const base = layout.base / scale;
  const contactDepth = Math.max(1.5, (product.width / scale) * 0.035);
  const dropDepth = Math.max(3, (product.height / scale) * 0.12);
  const skew = Math.tan((-recipe.light.angle * Math.PI) / 180) * 0.8;
  const contact = new Float32Array(size * size);
  const drop = new Float32Array(size * size);
  for (let y = Math.max(0, Math.floor(base - contactDepth)); y < size; y += 1) {
    const below = y - base;
    const contactFall = Math.exp(-((below / contactDepth) ** 2));
    const dropFall = below < 0 ? Math.exp(-((below / contactDepth) ** 2)) : Math.exp(-below / dropDepth);
    const shift = Math.max(0, below) * skew;
    for (let x = 0; x < size; x += 1) {
      contact[y * size + x] = footprint[x]! * contactFall;
      const sourceX = Math.round(x - shift);
      if (sourceX >= 0 && sourceX < size) drop[y * size + x] = silhouette[sourceX]! * dropFall;
    }
  }
  const tight = gaussianBlur(contact, size, size, Math.max(1, contactDepth * 0.8));
  const soft = gaussianBlur(drop, size, size, Math.max(2, dropDepth * 0.9));
  const map = new Float32Array(size * size);
  for (let k = 0; k < map.length; k += 1) {
    map[k] = Math.min(0.9, recipe.shadow * (0.55 * soft[k]! + 1.1 * tight[k]!));
  }
  return { map, scale };
}

function sampleQuarter(map: Float32Array, scale: number, size: number, x: number, y: number): number {
  const small = Math.ceil(size / scale);
  const fx = Math.min(small - 1, Math.max(0, (x + 0.5) / scale - 0.5));
  const fy = Math.min(small - 1, Math.max(0, (y + 0.5) / scale - 0.5));
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const x1 = Math.min(small - 1, x0 + 1);
  const y1 = Math.min(small - 1, y0 + 1);
  const wx = fx - x0;
  const wy = fy - y0;
  return (
    (map[y0 * small + x0]! * (1 - wx) + map[y0 * small + x1]! * wx) * (1 - wy) +
    (map[y1 * small + x0]! * (1 - wx) + map[y1 * small + x1]! * wx) * wy
  );
}

/** Everything behind the product (scene, shadows, reflection) for one variation at one size. */
export interface Backdrop {
  rgb: Buffer;
  size: number;
  layout: Layout;
  recipe: StyleRecipe;
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
  const rgb = renderScene(recipe, layout);
  if (recipe.shadow <= 0 && recipe.reflection <= 0) return { rgb, size, layout, recipe };
  const scaled = await scaledProduct(product, layout);
  const coverage = coverageOf(scaled, size);
  if (recipe.shadow > 0) {
    const { map, scale } = shadowMap(coverage, layout, recipe);
    const top = Math.max(0, Math.floor(layout.base - layout.product.width * 0.1));
    for (let y = top; y < size; y += 1) {
      for (let x = 0; x < size; x += 1) {
        const shade = sampleQuarter(map, scale, size, x, y);
        if (shade <= 0.002) continue;
        const offset = (y * size + x) * 3;
        const keep = 1 - shade;
        rgb[offset] = Math.round(rgb[offset]! * keep);
        rgb[offset + 1] = Math.round(rgb[offset + 1]! * keep);
        rgb[offset + 2] = Math.round(rgb[offset + 2]! * (keep + shade * 0.04));
      }
    }
  }
  if (recipe.reflection > 0) {
    // Mirror image on a glossy floor, fading with distance from the contact line.
    const depth = Math.max(1, Math.round(layout.product.height * 0.35));
    for (let d = 0; d < depth; d += 1) {
      const y = layout.base + d;
      if (y >= size) break;
      const sourceY = layout.base - 1 - d - scaled.top;
      if (sourceY < 0 || sourceY >= scaled.height) continue;
      const strength = recipe.reflection * (1 - d / depth) ** 2;
      for (let sx = 0; sx < scaled.width; sx += 1) {
        const x = scaled.left + sx;
        if (x < 0 || x >= size) continue;
        const source = (sourceY * scaled.width + sx) * 4;
        const a = (scaled.data[source + 3]! / 255) * strength;
        if (a <= 0) continue;
        const offset = (y * size + x) * 3;
        for (let c = 0; c < 3; c += 1) {
          rgb[offset + c] = Math.round(rgb[offset + c]! * (1 - a) + scaled.data[source + c]! * a);
        }
      }
    }
  }
  return { rgb, size, layout, recipe };
}

/**
 * Draws the product over a backdrop at `size` (the backdrop is resampled when it was made at another size).
 * Inside the product's mask the only change is the global light match.
 */
export async function placeProduct(backdrop: Backdrop, product: ProductSource, size: number): Promise<Rendered> {
  const { recipe } = backdrop;
  const layout = layoutFor(product, recipe, size);
  const [rgb, scaled] = await Promise.all([
    backdrop.size === size
      ? Promise.resolve(Buffer.from(backdrop.rgb))
      : sharp(backdrop.rgb, { raw: { width: backdrop.size, height: backdrop.size, channels: 3 } })
          .resize(size, size, { kernel: 'lanczos3' })
          .raw()
          .toBuffer(),
    scaledProduct(product, layout),
  ]);
  const coverage = coverageOf(scaled, size);
  const light = lightMatchFor(recipe, product.luminance);
  for (let y = 0; y < scaled.height; y += 1) {
    const cy = scaled.top + y;
    if (cy < 0 || cy >= size) continue;
    for (let x = 0; x < scaled.width; x += 1) {
      const cx = scaled.left + x;
      if (cx < 0 || cx >= size) continue;
      const source = (y * scaled.width + x) * 4;
      const alpha = scaled.data[source + 3]!;
      if (alpha === 0) continue;
      const a = alpha / 255;
      const offset = (cy * size + cx) * 3;
      for (let c = 0; c < 3; c += 1) {
        const lit = Math.min(255, Math.max(0, scaled.data[source + c]! * light.gain[c]! + light.offset[c]!));
        rgb[offset + c] = Math.round(rgb[offset + c]! * (1 - a) + lit * a);
      }
    }
  }
  return {
    rgb,
    width: size,
    height: size,
    coverage,
    layout,
    light,
    placement: { left: scaled.left, top: scaled.top, width: scaled.width, height: scaled.height },
  };
}

/** Backdrop and product in one step at one size (tools and tests). */
export async function composeVariation(product: ProductSource, recipe: StyleRecipe, size: number): Promise<Rendered> {
  return placeProduct(await renderBackdrop(product, recipe, size), product, size);
}
