import { parseHex, type StyleRecipe } from '../domain/styles';
import { asBuffer, pixelThread } from './pixel-thread';

/** Where the product goes on a square canvas of `size` pixels (all in pixels). */
export interface Layout {
  size: number;
  /** The product's tight box on the canvas. */
  product: { left: number; top: number; width: number; height: number };
  /** y of the floor contact line (the product's bottom edge). */
  base: number;
}

/** Base line of each look as a fraction of the frame; the product stands on it. */
const BASE_LINE: Record<string, number> = {
  'studio-sweep': 0.84,
  tabletop: 0.84,
  podium: 0.7,
  'pastel-arch': 0.83,
  'dark-premium': 0.8,
  'window-light': 0.84,
};

export class UnknownLookError extends Error {
  constructor(readonly look: string) {
    super(`The style "${look}" is no longer available; this image could not be made.`);
    this.name = 'UnknownLookError';
  }
}

/**
 * Sizes and places the product. Marketplace white centres it at the recipe's share of the frame (85%: the
 * marketplace main-image rule); the other looks stand it on their base line with headroom above.
 */
export function computeLayout(recipe: StyleRecipe, productWidth: number, productHeight: number, size: number): Layout {
  if (recipe.look === 'marketplace-white') {
    const scale = (recipe.productScale * size) / Math.max(productWidth, productHeight);
    const width = Math.round(productWidth * scale);
    const height = Math.round(productHeight * scale);
    const left = Math.round((size - width) / 2);
    const top = Math.round((size - height) / 2);
    return { size, product: { left, top, width, height }, base: top + height };
  }
  const baseLine = BASE_LINE[recipe.look];
  if (baseLine === undefined) throw new UnknownLookError(recipe.look);
  const base = Math.round(baseLine * size);
  const maxHeight = base - 0.1 * size;
  const scale = Math.min(
    (recipe.productScale * size) / Math.max(productWidth, productHeight),
    maxHeight / productHeight,
    (0.86 * size) / productWidth,
  );
  const width = Math.round(productWidth * scale);
  const height = Math.round(productHeight * scale);
  return { size, product: { left: Math.round((size - width) / 2), top: base - height, width, height }, base };
}

const smoothstep = (edge0: number, edge1: number, x: number): number => {
  const t = Math.min(1, Math.max(0, (x - edge0) / (edge1 - edge0)));
  return t * t * (3 - 2 * t);
};

type Rgb = readonly [number, number, number];

function warmTint(color: Rgb, warmth: number): Rgb {
  return [color[0] * (1 + 0.025 * warmth), color[1], color[2] * (1 - 0.03 * warmth)];
}

/** Per-pixel grain in ±amplitude from an integer hash: no banding in smooth gradients, same every render. */
function grain(x: number, y: number, seed: number, amplitude: number): number {
  let h = (Math.imul(x, 374761393) + Math.imul(y, 668265263) + seed) | 0;
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  h ^= h >>> 16;
  return (((h & 0xffff) / 0xffff) * 2 - 1) * amplitude;
}

interface SceneShape {
  /** Colour of the scene at (u, v) in [0,1]² (v down), before lighting. */
  colour(u: number, v: number, out: number[]): void;
}

function lerpInto(out: number[], a: Rgb, b: Rgb, t: number): void {
  out[0] = a[0] + (b[0] - a[0]) * t;
  out[1] = a[1] + (b[1] - a[1]) * t;
  out[2] = a[2] + (b[2] - a[2]) * t;
}

function shapeFor(recipe: StyleRecipe, layout: Layout): SceneShape {
  const backdrop = warmTint(parseHex(recipe.palette.backdrop), recipe.light.warmth);
  const surface = warmTint(parseHex(recipe.palette.surface), recipe.light.warmth);
  const accent = warmTint(parseHex(recipe.palette.accent), recipe.light.warmth);
  const size = layout.size;
  const base = layout.base / size;
  const cx = (layout.product.left + layout.product.width / 2) / size;
  const productWidth = layout.product.width / size;
  const productHeight = layout.product.height / size;
  const angle = (recipe.light.angle * Math.PI) / 180;
  const edge = 1.5 / size;

  switch (recipe.look) {
    case 'studio-sweep':
      return {
        colour(u, v, out) {
          // The backdrop bends into the floor: no horizon line, a long soft blend.
          lerpInto(out, backdrop, surface, smoothstep(base - 0.42, base + 0.06, v));
        },
      };
    case 'tabletop': {
      const horizon = base - 0.2;
      const phase = (recipe.seed % 1000) / 159;
      return {
        colour(u, v, out) {
          if (v < horizon - 2 * edge) {
            lerpInto(out, backdrop, backdrop, 0);
            const shade = 0.96 + 0.04 * (v / horizon);
            out[0]! *= shade;
            out[1]! *= shade;
            out[2]! *= shade;
            return;
          }
          // Perspective: grain lines crowd towards the horizon, like a wooden or stone top seen at an angle.
          const depth = 1 / (v - horizon + 0.035);
          const streak =
            0.022 * Math.sin(depth * 9 + 2.5 * Math.sin(u * 3.1 + phase)) + 0.012 * Math.sin(depth * 23 + phase * 3);
          const near = 0.94 + 0.1 * smoothstep(horizon, 1, v);
          const k = near * (1 + streak);
          const blend = smoothstep(horizon - 2 * edge, horizon + 2 * edge, v);
          out[0] = backdrop[0] * 0.97 * (1 - blend) + surface[0] * k * blend;
          out[1] = backdrop[1] * 0.97 * (1 - blend) + surface[1] * k * blend;
          out[2] = backdrop[2] * 0.97 * (1 - blend) + surface[2] * k * blend;
        },
      };
    }
    case 'podium': {
      const rx = Math.max(productWidth * 0.72, 0.2);
      const ry = rx * 0.17;
      const top = base - ry * 0.25;
      const bottom = Math.min(0.985 - ry, top + 0.24);
      return {
        colour(u, v, out) {
          lerpInto(out, backdrop, backdrop, 0);
          const sweep = smoothstep(0.2, 1, v);
          out[0] = backdrop[0] * (1 - 0.06 * sweep);
          out[1] = backdrop[1] * (1 - 0.06 * sweep);
          out[2] = backdrop[2] * (1 - 0.06 * sweep);
          const nx = (u - cx) / rx;
          if (Math.abs(nx) > 1 + edge / rx) {
            // Soft shadow the podium throws on the floor behind and around it.
            const dx = Math.abs(nx) - 1;
            const floorShadow = Math.exp(-(dx * dx) / 0.02) * smoothstep(bottom - 0.05, bottom + ry, v) * 0.12;
            out[0]! *= 1 - floorShadow;
            out[1]! *= 1 - floorShadow;
            out[2]! *= 1 - floorShadow;
            return;
          }
          const curve = Math.sqrt(Math.max(0, 1 - nx * nx));
          const topFace = ((u - cx) / rx) ** 2 + ((v - top) / ry) ** 2;
          const bodyBottom = bottom + ry * curve;
          const side = 1 - smoothstep(1 - edge / rx, 1 + edge / rx, Math.abs(nx));
          if (topFace <= 1) {
            const rim = smoothstep(0.85, 1, topFace);
            const k = 1.04 - 0.05 * rim;
            out[0] = surface[0] * k;
            out[1] = surface[1] * k;
            out[2] = surface[2] * k;
          } else if (v > top && v < bodyBottom) {
            // Cylinder lit from the key light's side.
            const lit = 0.74 + 0.22 * Math.cos(Math.acos(Math.max(-1, Math.min(1, nx))) - Math.PI / 2 + angle * 0.6);
            const k = lit * side + (1 - side);
            const fade = 1 - 0.05 * smoothstep(top, bodyBottom, v);
            out[0] = (surface[0] * k * side + out[0]! * (1 - side)) * fade;
            out[1] = (surface[1] * k * side + out[1]! * (1 - side)) * fade;
            out[2] = (surface[2] * k * side + out[2]! * (1 - side)) * fade;
          }
        },
      };
    }
    case 'pastel-arch': {
      const floor = base - 0.07;
      const archWidth = Math.max(productWidth * 1.35, 0.44);
      const radius = archWidth / 2;
      const archTop = Math.max(0.1, floor - Math.max(productHeight * 1.25, 0.52));
      return {
        colour(u, v, out) {
          if (v >= floor) {
            lerpInto(out, surface, surface, 0);
            const k = 0.95 + 0.07 * smoothstep(floor, 1, v);
            out[0]! *= k;
            out[1]! *= k;
            out[2]! *= k;
            const line = 1 - smoothstep(0, 3 * edge, v - floor);
            lerpInto(out, [out[0]!, out[1]!, out[2]!], surface.map((c) => c * 0.9) as unknown as Rgb, line * 0.6);
            return;
          }
          const dx = Math.abs(u - cx);
          const shoulder = archTop + radius;
          let inside: number;
          if (v >= shoulder) inside = 1 - smoothstep(radius - edge, radius + edge, dx);
          else inside = 1 - smoothstep(radius - edge, radius + edge, Math.sqrt(dx * dx + (v - shoulder) ** 2));
          lerpInto(out, backdrop, accent, inside);
        },
      };
    }
    case 'dark-premium': {
      const glowY = (layout.product.top + layout.product.height * 0.45) / size;
      return {
        colour(u, v, out) {
          const floorBlend = smoothstep(base - 0.03, base + 0.03, v);
          lerpInto(out, backdrop, surface, floorBlend);
          const d2 = (u - cx) ** 2 + ((v - glowY) * 1.25) ** 2;
          const glow = 0.55 * Math.exp(-d2 / (2 * 0.3 * 0.3)) * (1 - floorBlend * 0.6);
          out[0] = out[0]! + (accent[0] - out[0]!) * glow;
          out[1] = out[1]! + (accent[1] - out[1]!) * glow;
          out[2] = out[2]! + (accent[2] - out[2]!) * glow;
        },
      };
    }
    case 'window-light': {
      const floor = base - 0.12;
      const direction = 0.9 + angle * 0.5;
      const cos = Math.cos(direction);
      const sin = Math.sin(direction);
      const lightTint = accent;
      const windowX = 0.5 - Math.sin(angle) * 0.3;
      return {
        colour(u, v, out) {
          const floorBlend = smoothstep(floor - edge * 2, floor + edge * 2, v);
          lerpInto(out, backdrop, surface, floorBlend);
          if (floorBlend > 0) {
            const k = 0.95 + 0.07 * smoothstep(floor, 1, v);
            out[0]! *= 1 + (k - 1) * floorBlend;
            out[1]! *= 1 + (k - 1) * floorBlend;
            out[2]! *= 1 + (k - 1) * floorBlend;
          }
          // Sun through a window: a few soft, warm bands falling diagonally, strongest near the window.
          const across = u * cos + v * sin;
          const band = Math.max(0, Math.sin(across * 22 + (recipe.seed % 7))) ** 4;
          const window = smoothstep(0.05, 0.7, 1 - Math.sqrt((u - windowX) ** 2 + (v - 0.35) ** 2) * 1.2);
          const beam = band * window * 0.15;
          out[0] = out[0]! * (0.94 + beam) + lightTint[0] * beam * 0.25;
          out[1] = out[1]! * (0.94 + beam) + lightTint[1] * beam * 0.25;
          out[2] = out[2]! * (0.94 + beam) + lightTint[2] * beam * 0.22;
        },
      };
    }
    default:
      throw new UnknownLookError(recipe.look);
  }
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

/** The per-pixel painting of a procedural look (pixel thread). */
export function paintScene(recipe: StyleRecipe, layout: Layout): Buffer {
  const { size } = layout;
  const out = Buffer.alloc(size * size * 3, 255);
  if (recipe.look === 'marketplace-white') return out;
  const shape = shapeFor(recipe, layout);
  const angle = (recipe.light.angle * Math.PI) / 180;
  const lightX = 0.5 + Math.sin(angle) * 0.35;
  const lightY = 0.22;
  const dark = recipe.look === 'dark-premium';
  const colour = [0, 0, 0];
  const inverse = 1 / size;
  // The key light (a Gaussian around its spot) and the vignette are separable in u and v: one table per axis
  // instead of an exp per pixel.
  const keyU = new Float64Array(size);
  const keyV = new Float64Array(size);
  const vignette = new Float64Array(size);
  for (let k = 0; k < size; k += 1) {
    const t = (k + 0.5) * inverse;
    keyU[k] = Math.exp(-3 * (t - lightX) ** 2);
    keyV[k] = Math.exp(-3 * (t - lightY) ** 2);
    vignette[k] = (t - 0.5) ** 2;
  }
  for (let y = 0; y < size; y += 1) {
    const v = (y + 0.5) * inverse;
    for (let x = 0; x < size; x += 1) {
      const u = (x + 0.5) * inverse;
      shape.colour(u, v, colour);
      const light = dark ? 1 : 1 + 0.07 * keyU[x]! * keyV[y]! - 0.1 * (vignette[x]! + vignette[y]!);
      const noise = grain(x, y, recipe.seed, dark ? 1.6 : 1.1);
      const offset = (y * size + x) * 3;
      out[offset] = clampByte(colour[0]! * light + noise);
      out[offset + 1] = clampByte(colour[1]! * light + noise);
      out[offset + 2] = clampByte(colour[2]! * light + noise);
    }
  }
  return out;
}

function clampByte(value: number): number {
  return value <= 0 ? 0 : value >= 255 ? 255 : Math.round(value);
}
