import { parseHex, type StyleRecipe } from '../styles';
import { sharedBuffer } from '../threads/shared-memory';

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

/**
 * Per-pixel grain in ±amplitude from an integer hash: no banding in smooth gradients, same every render. The hash's
 * 16 bits index a table of the grain's values; `row` is `grainRow(y, seed)`.
 */
function grainHash(x: number, row: number): number {
  let h = (Math.imul(x, 374761393) + row) | 0;
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  h ^= h >>> 16;
  return h & 0xffff;
}

const grainRow = (y: number, seed: number) => (Math.imul(y, 668265263) + seed) | 0;

function grainTable(amplitude: number): Float64Array {
  return new Float64Array(0x10000).map((_, k) => ((k / 0xffff) * 2 - 1) * amplitude);
}

/**
 * A look's colour before lighting, painted one row at a time: `row` fills the colour at every u = (x + 0.5) / size
 * of the row at v (v down). Everything that depends on u alone is worked out once per column and everything that
 * depends on v alone once per row, so the per-pixel work is a few multiplications (measured at 1024²: 80–240 ms
 * per look with a colour call per pixel, see `paintScene`).
 */
interface SceneShape {
  row(v: number, red: Float64Array, green: Float64Array, blue: Float64Array): void;
}

/** The same colour over a whole row. */
function fillRow(red: Float64Array, green: Float64Array, blue: Float64Array, colour: Rgb): void {
  red.fill(colour[0]);
  green.fill(colour[1]);
  blue.fill(colour[2]);
}

/** A table of f(u) over the row's columns. */
function columns(us: Float64Array, f: (u: number) => number): Float64Array {
  return us.map(f);
}

function shapeFor(recipe: StyleRecipe, layout: Layout, us: Float64Array): SceneShape {
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
  const lerp = (a: Rgb, b: Rgb, t: number, c: 0 | 1 | 2) => a[c] + (b[c] - a[c]) * t;
  const mix = (a: Rgb, b: Rgb, t: number): Rgb => [lerp(a, b, t, 0), lerp(a, b, t, 1), lerp(a, b, t, 2)];

  switch (recipe.look) {
    case 'studio-sweep':
      return {
        row(v, red, green, blue) {
          // The backdrop bends into the floor: no horizon line, a long soft blend.
          const t = smoothstep(base - 0.42, base + 0.06, v);
          fillRow(red, green, blue, mix(backdrop, surface, t));
        },
      };
    case 'tabletop': {
      const horizon = base - 0.2;
      const phase = (recipe.seed % 1000) / 159;
      // sin(depth·9 + wobble(u)) = sin(depth·9)·cos(wobble) + cos(depth·9)·sin(wobble): no sine per pixel.
      const wobble = columns(us, (u) => 2.5 * Math.sin(u * 3.1 + phase));
      const wobbleSin = wobble.map(Math.sin);
      const wobbleCos = wobble.map(Math.cos);
      return {
        row(v, red, green, blue) {
          if (v < horizon - 2 * edge) {
            const shade = 0.96 + 0.04 * (v / horizon);
            fillRow(red, green, blue, [backdrop[0] * shade, backdrop[1] * shade, backdrop[2] * shade]);
            return;
          }
          // Perspective: grain lines crowd towards the horizon, like a wooden or stone top seen at an angle.
          const depth = 1 / (v - horizon + 0.035);
          const fine = 0.012 * Math.sin(depth * 23 + phase * 3);
          const sin = 0.022 * Math.sin(depth * 9);
          const cos = 0.022 * Math.cos(depth * 9);
          const near = 0.94 + 0.1 * smoothstep(horizon, 1, v);
          const blend = smoothstep(horizon - 2 * edge, horizon + 2 * edge, v);
          const [r0, g0, b0] = backdrop.map((c) => c * 0.97 * (1 - blend));
          const [r1, g1, b1] = surface.map((c) => c * near * blend) as [number, number, number];
          for (let x = 0; x < us.length; x += 1) {
            const k = 1 + sin * wobbleCos[x]! + cos * wobbleSin[x]! + fine;
            red[x] = r0! + r1 * k;
            green[x] = g0! + g1 * k;
            blue[x] = b0! + b1 * k;
          }
        },
      };
    }
    case 'podium': {
      const rx = Math.max(productWidth * 0.72, 0.2);
      const ry = rx * 0.17;
      const top = base - ry * 0.25;
      const bottom = Math.min(0.985 - ry, top + 0.24);
      const nx = columns(us, (u) => (u - cx) / rx);
      // Soft shadow the podium throws on the floor behind and around it (its width term).
      const floorShadow = nx.map((n) => Math.exp(-((Math.abs(n) - 1) ** 2) / 0.02));
      const outside = nx.map((n) => (Math.abs(n) > 1 + edge / rx ? 1 : 0));
      const curve = nx.map((n) => Math.sqrt(Math.max(0, 1 - n * n)));
      const side = nx.map((n) => 1 - smoothstep(1 - edge / rx, 1 + edge / rx, Math.abs(n)));
      // Cylinder lit from the key light's side.
      const lit = nx.map(
        (n) => 0.74 + 0.22 * Math.cos(Math.acos(Math.max(-1, Math.min(1, n))) - Math.PI / 2 + angle * 0.6),
      );
      return {
        row(v, red, green, blue) {
          const sweep = 1 - 0.06 * smoothstep(0.2, 1, v);
          const [r0, g0, b0] = backdrop.map((c) => c * sweep) as [number, number, number];
          const shadowDepth = smoothstep(bottom - 0.05, bottom + ry, v) * 0.12;
          const faceV = ((v - top) / ry) ** 2;
          for (let x = 0; x < us.length; x += 1) {
            if (outside[x]) {
              const shade = 1 - floorShadow[x]! * shadowDepth;
              red[x] = r0 * shade;
              green[x] = g0 * shade;
              blue[x] = b0 * shade;
              continue;
            }
            const n = nx[x]!;
            const topFace = n * n + faceV;
            const bodyBottom = bottom + ry * curve[x]!;
            if (topFace <= 1) {
              const k = 1.04 - 0.05 * smoothstep(0.85, 1, topFace);
              red[x] = surface[0] * k;
              green[x] = surface[1] * k;
              blue[x] = surface[2] * k;
            } else if (v > top && v < bodyBottom) {
              const s = side[x]!;
              const k = (lit[x]! * s + (1 - s)) * s;
              const fade = 1 - 0.05 * smoothstep(top, bodyBottom, v);
              red[x] = (surface[0] * k + r0 * (1 - s)) * fade;
              green[x] = (surface[1] * k + g0 * (1 - s)) * fade;
              blue[x] = (surface[2] * k + b0 * (1 - s)) * fade;
            } else {
              red[x] = r0;
              green[x] = g0;
              blue[x] = b0;
            }
          }
        },
      };
    }
    case 'pastel-arch': {
      const floor = base - 0.07;
      const archWidth = Math.max(productWidth * 1.35, 0.44);
      const radius = archWidth / 2;
      const archTop = Math.max(0.1, floor - Math.max(productHeight * 1.25, 0.52));
      const shoulder = archTop + radius;
      const dx = columns(us, (u) => Math.abs(u - cx));
      const wall = dx.map((d) => 1 - smoothstep(radius - edge, radius + edge, d));
      return {
        row(v, red, green, blue) {
          if (v >= floor) {
            const k = 0.95 + 0.07 * smoothstep(floor, 1, v);
            // A darker line where the wall meets the floor.
            const line = (1 - smoothstep(0, 3 * edge, v - floor)) * 0.6;
            const [r, g, b] = surface.map((c) => c * k + (c * 0.9 - c * k) * line) as [number, number, number];
            fillRow(red, green, blue, [r, g, b]);
            return;
          }
          const dv = (v - shoulder) ** 2;
          for (let x = 0; x < us.length; x += 1) {
            // Beside the arch's width it is wall at every height.
            const inside =
              v >= shoulder || wall[x] === 0
                ? wall[x]!
                : 1 - smoothstep(radius - edge, radius + edge, Math.sqrt(dx[x]! ** 2 + dv));
            red[x] = lerp(backdrop, accent, inside, 0);
            green[x] = lerp(backdrop, accent, inside, 1);
            blue[x] = lerp(backdrop, accent, inside, 2);
          }
        },
      };
    }
    case 'dark-premium': {
      const glowY = (layout.product.top + layout.product.height * 0.45) / size;
      // The glow's Gaussian is separable: one factor per column, one per row.
      const glowU = columns(us, (u) => Math.exp(-((u - cx) ** 2) / (2 * 0.3 * 0.3)));
      return {
        row(v, red, green, blue) {
          const floorBlend = smoothstep(base - 0.03, base + 0.03, v);
          const [r, g, b] = mix(backdrop, surface, floorBlend);
          const glowV = 0.55 * Math.exp(-(((v - glowY) * 1.25) ** 2) / (2 * 0.3 * 0.3)) * (1 - floorBlend * 0.6);
          for (let x = 0; x < us.length; x += 1) {
            const glow = glowU[x]! * glowV;
            red[x] = r + (accent[0] - r) * glow;
            green[x] = g + (accent[1] - g) * glow;
            blue[x] = b + (accent[2] - b) * glow;
          }
        },
      };
    }
    case 'window-light': {
      const floor = base - 0.12;
      const direction = 0.9 + angle * 0.5;
      const lightTint = accent;
      const windowX = 0.5 - Math.sin(angle) * 0.3;
      // Bands of sin((u cos + v sin)·22 + phase): sin(a + b) from a column and a row term, no sine per pixel.
      const across = columns(us, (u) => u * Math.cos(direction) * 22);
      const acrossSin = across.map(Math.sin);
      const acrossCos = across.map(Math.cos);
      const windowU = columns(us, (u) => (u - windowX) ** 2);
      return {
        row(v, red, green, blue) {
          const floorBlend = smoothstep(floor - edge * 2, floor + edge * 2, v);
          const floorLight = floorBlend > 0 ? 1 + (0.95 + 0.07 * smoothstep(floor, 1, v) - 1) * floorBlend : 1;
          const [r, g, b] = mix(backdrop, surface, floorBlend).map((c) => c * floorLight) as [number, number, number];
          // Sun through a window: a few soft, warm bands falling diagonally, strongest near the window.
          const rowPhase = v * Math.sin(direction) * 22 + (recipe.seed % 7);
          const sin = Math.sin(rowPhase);
          const cos = Math.cos(rowPhase);
          const windowV = (v - 0.35) ** 2;
          for (let x = 0; x < us.length; x += 1) {
            const wave = acrossSin[x]! * cos + acrossCos[x]! * sin;
            let beam = 0;
            if (wave > 0) {
              const window = smoothstep(0.05, 0.7, 1 - Math.sqrt(windowU[x]! + windowV) * 1.2);
              beam = wave * wave * wave * wave * window * 0.15;
            }
            red[x] = r * (0.94 + beam) + lightTint[0] * beam * 0.25;
            green[x] = g * (0.94 + beam) + lightTint[1] * beam * 0.25;
            blue[x] = b * (0.94 + beam) + lightTint[2] * beam * 0.22;
          }
        },
      };
    }
    default:
      throw new UnknownLookError(recipe.look);
  }
}

/**
 * The per-pixel painting of a procedural look (pixel thread), in shared memory: it crosses to the main thread and
 * back (the base and the finished image are composed over it) without a copy.
 */
export function paintScene(recipe: StyleRecipe, layout: Layout): Buffer {
  const { size } = layout;
  if (recipe.look === 'marketplace-white') return Buffer.alloc(size * size * 3, 255);
  const out = sharedBuffer(size * size * 3);
  const inverse = 1 / size;
  const us = new Float64Array(size).map((_, x) => (x + 0.5) * inverse);
  const shape = shapeFor(recipe, layout, us);
  const angle = (recipe.light.angle * Math.PI) / 180;
  const lightX = 0.5 + Math.sin(angle) * 0.35;
  const lightY = 0.22;
  const dark = recipe.look === 'dark-premium';
  const amplitude = dark ? 1.6 : 1.1;
  // The key light (a Gaussian around its spot) and the vignette are separable in u and v: one table per axis
  // instead of an exp per pixel.
  const keyU = new Float64Array(size);
  const keyV = new Float64Array(size);
  const vignette = new Float64Array(size);
  for (let k = 0; k < size; k += 1) {
    const t = us[k]!;
    keyU[k] = Math.exp(-3 * (t - lightX) ** 2);
    keyV[k] = Math.exp(-3 * (t - lightY) ** 2);
    vignette[k] = (t - 0.5) ** 2;
  }
  const red = new Float64Array(size);
  const green = new Float64Array(size);
  const blue = new Float64Array(size);
  const grain = grainTable(amplitude);
  for (let y = 0; y < size; y += 1) {
    shape.row(us[y]!, red, green, blue);
    const key = dark ? 0 : 0.07 * keyV[y]!;
    const shade = dark ? 1 : 1 - 0.1 * vignette[y]!;
    const fall = dark ? 0 : 0.1;
    const row = grainRow(y, recipe.seed);
    let offset = y * size * 3;
    for (let x = 0; x < size; x += 1, offset += 3) {
      const light = shade + key * keyU[x]! - fall * vignette[x]!;
      const noise = grain[grainHash(x, row)]!;
      out[offset] = clampByte(red[x]! * light + noise);
      out[offset + 1] = clampByte(green[x]! * light + noise);
      out[offset + 2] = clampByte(blue[x]! * light + noise);
    }
  }
  return out;
}

/** Rounded to the nearest byte, halves up (as Math.round). */
function clampByte(value: number): number {
  return value <= 0 ? 0 : value >= 255 ? 255 : (value + 0.5) | 0;
}
