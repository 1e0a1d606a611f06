import { z } from 'zod';
import type { CategoryId } from './analysis/categories';
import { hash32, pick, seededRandom } from './random';

/*
 * The style library: looks a seller would post, each a procedural scene (no generated pixels on the product).
 * A variation's recipe is everything the renderer needs; it is stored with the image, so the same recipe always
 * renders the same scene and a style preset is simply a saved recipe.
 */

export const looks = [
  'marketplace-white',
  'studio-sweep',
  'tabletop',
  'podium',
  'pastel-arch',
  'dark-premium',
  'window-light',
] as const;
export type LookId = (typeof looks)[number];

export const MARKETPLACE_LOOK: LookId = 'marketplace-white';

export function isLookId(value: string): value is LookId {
  return (looks as readonly string[]).includes(value);
}

const hexColor = z.string().regex(/^#[0-9a-f]{6}$/i, 'must be a #rrggbb colour');

export const styleRecipeSchema = z.object({
  /** Any text: a recipe saved by an older version may name a look this one no longer has (the render fails). */
  look: z.string().min(1).max(100),
  palette: z.object({ backdrop: hexColor, surface: hexColor, accent: hexColor }),
  light: z.object({
    /** Where the key light comes from, degrees left (−) or right (+) of straight above. */
    angle: z.number().min(-60).max(60),
    /** −1 cool … +1 warm; tints the scene and, gently, the product's global light match. */
    warmth: z.number().min(-1).max(1),
  }),
  /** Long side of the product as a fraction of the frame. */
  productScale: z.number().min(0.3).max(0.9),
  /** Opacity of the floor reflection (0 = none). */
  reflection: z.number().min(0).max(0.5),
  /** Opacity of the soft drop shadow. */
  shadow: z.number().min(0).max(0.8),
  seed: z.number().int().min(0).max(0xffffffff),
});
export type StyleRecipe = z.infer<typeof styleRecipeSchema>;

interface Palette {
  backdrop: string;
  surface: string;
  accent: string;
}

interface LookOption {
  look: LookId;
  palettes: readonly Palette[];
  productScale: number;
  reflection: number;
  shadow: number;
  warmth: number;
}

type FamilyId = 'soft' | 'luxe' | 'home' | 'kitchen' | 'tech' | 'playful';

export const categoryFamilies: Record<CategoryId, FamilyId> = {
  fashion: 'soft',
  baby: 'soft',
  bags: 'soft',
  jewelry: 'luxe',
  beauty: 'luxe',
  'home-decor': 'home',
  furniture: 'home',
  kitchen: 'kitchen',
  food: 'kitchen',
  electronics: 'tech',
  music: 'tech',
  fitness: 'playful',
  toys: 'playful',
  pet: 'playful',
  other: 'soft',
};

const white: Palette = { backdrop: '#ffffff', surface: '#ffffff', accent: '#ffffff' };

function option(
  look: LookId,
  palettes: readonly Palette[],
  extra: Partial<Omit<LookOption, 'look' | 'palettes'>> = {},
) {
  const defaults: Record<LookId, Omit<LookOption, 'look' | 'palettes'>> = {
    'marketplace-white': { productScale: 0.85, reflection: 0, shadow: 0, warmth: 0 },
    'studio-sweep': { productScale: 0.68, reflection: 0, shadow: 0.38, warmth: 0 },
    tabletop: { productScale: 0.62, reflection: 0, shadow: 0.42, warmth: 0.2 },
    podium: { productScale: 0.5, reflection: 0, shadow: 0.4, warmth: 0 },
    'pastel-arch': { productScale: 0.58, reflection: 0, shadow: 0.34, warmth: 0.1 },
    'dark-premium': { productScale: 0.62, reflection: 0.26, shadow: 0.5, warmth: 0 },
    'window-light': { productScale: 0.6, reflection: 0, shadow: 0.45, warmth: 0.45 },
  };
  return { look, palettes, ...defaults[look], ...extra } satisfies LookOption;
}

const p = (backdrop: string, surface: string, accent: string): Palette => ({ backdrop, surface, accent });

/** At least six looks per family; the first is always the marketplace main image. */
const families: Record<FamilyId, readonly LookOption[]> = {
  soft: [
    option('marketplace-white', [white]),
    option('studio-sweep', [
      p('#f1eee9', '#e4dfd7', '#ffffff'),
      p('#e9edf1', '#dae0e6', '#ffffff'),
      p('#f3ece8', '#e6dad3', '#ffffff'),
    ]),
    option('pastel-arch', [
      p('#f6e3dc', '#eed3c9', '#f9ede8'),
      p('#e3ece4', '#d3e0d5', '#eef4ef'),
      p('#e6e2f0', '#d8d2e6', '#f1eef7'),
    ]),
    option('window-light', [p('#ece3d6', '#ddd0bf', '#fff6e6')]),
    option('tabletop', [p('#eeeae4', '#cdbba4', '#ffffff'), p('#e8e8e6', '#bfb8ae', '#ffffff')]),
    option('podium', [p('#e9e3db', '#f6f2ec', '#ffffff'), p('#dfe6ea', '#f4f6f7', '#ffffff')]),
    option('dark-premium', [p('#26262b', '#141417', '#5c5d66')], { reflection: 0.18 }),
  ],
  luxe: [
    option('marketplace-white', [white]),
    option('podium', [
      p('#eadfd6', '#f7f1ec', '#ffffff'),
      p('#e3e0dc', '#faf8f6', '#ffffff'),
      p('#dfe3e6', '#f3f5f6', '#ffffff'),
    ]),
    option('dark-premium', [p('#24222a', '#121116', '#6b5e4e'), p('#1f2328', '#0f1114', '#4f5d6b')]),
    option('pastel-arch', [p('#f3dfdc', '#ebcfca', '#f8ebe8'), p('#efe4d8', '#e5d5c3', '#f7efe6')]),
    option('studio-sweep', [p('#f4ede6', '#e7ddd2', '#ffffff'), p('#ece9ee', '#dedae2', '#ffffff')]),
    option('window-light', [p('#efe5da', '#e2d4c5', '#fff5e8')]),
    option('tabletop', [p('#ebe7e3', '#d9d4ce', '#ffffff')], { reflection: 0.12 }),
  ],
  home: [
    option('marketplace-white', [white]),
    option('window-light', [p('#ece2d4', '#cdb79b', '#fff4e2'), p('#e6e4de', '#c9c0b3', '#fffaf0')]),
    option('tabletop', [p('#e9e4dc', '#b99a78', '#ffffff'), p('#e4e6e3', '#a9a59d', '#ffffff')]),
    option('studio-sweep', [p('#eeebe6', '#e0dbd3', '#ffffff'), p('#e4e9e6', '#d5ddd8', '#ffffff')]),
    option('pastel-arch', [p('#e8e4d8', '#dbd4c2', '#f3f0e7'), p('#dfe7e6', '#cfdbd9', '#eef3f2')]),
    option('podium', [p('#e6e0d8', '#f3eee8', '#ffffff')]),
    option('dark-premium', [p('#2a2724', '#151311', '#6a5a48')], { reflection: 0.16 }),
  ],
  kitchen: [
    option('marketplace-white', [white]),
    option('tabletop', [
      p('#efe9e0', '#b48f68', '#ffffff'),
      p('#e8ebea', '#c7c9c6', '#ffffff'),
      p('#f0ebe3', '#d8c9b3', '#ffffff'),
    ]),
    option('window-light', [p('#eee4d4', '#cbb393', '#fff3de')]),
    option('studio-sweep', [p('#f2eee8', '#e4ddd3', '#ffffff'), p('#eaeee9', '#dbe1da', '#ffffff')]),
    option('pastel-arch', [p('#f4e6d8', '#ead5c0', '#f9efe5'), p('#e1ebe3', '#d0dfd3', '#eef5f0')]),
    option('podium', [p('#e8e4de', '#f5f2ee', '#ffffff')]),
    option('dark-premium', [p('#262320', '#12100e', '#6e5a44')], { reflection: 0.14 }),
  ],
  tech: [
    option('marketplace-white', [white]),
    option('dark-premium', [p('#22252b', '#0f1115', '#3f5a78'), p('#25232b', '#111016', '#5b4f78')]),
    option('studio-sweep', [p('#e9ebee', '#d8dce1', '#ffffff'), p('#eef0f2', '#dfe3e7', '#ffffff')]),
    option('podium', [p('#dfe3e8', '#f2f4f6', '#ffffff'), p('#2a2d33', '#4a4f57', '#7a8594')]),
    option('tabletop', [p('#e6e8ea', '#b8bcc1', '#ffffff'), p('#e9e5df', '#8f7a64', '#ffffff')]),
    option('window-light', [p('#e6e4e0', '#cdc7bd', '#fffaf0')], { warmth: 0.3 }),
    option('pastel-arch', [p('#dfe6ee', '#cfd9e4', '#edf2f7')]),
  ],
  playful: [
    option('marketplace-white', [white]),
    option('pastel-arch', [
      p('#fbe3c8', '#f3d1ad', '#fdf0e0'),
      p('#d8ecf2', '#c3e0ea', '#ebf6f9'),
      p('#f3dbe6', '#ebc8d8', '#f9ecf2'),
    ]),
    option('studio-sweep', [p('#e5f0ea', '#d2e4da', '#ffffff'), p('#fdf1d8', '#f4e2bd', '#ffffff')]),
    option('podium', [p('#f6e7c9', '#fff8ea', '#ffffff'), p('#dbe9f5', '#f3f8fc', '#ffffff')]),
    option('tabletop', [p('#eef0ea', '#c4b091', '#ffffff')]),
    option('window-light', [p('#f0e6d6', '#d9c6aa', '#fff5e2')]),
    option('dark-premium', [p('#23262d', '#101216', '#3d6b5e')], { reflection: 0.16 }),
  ],
};

export function familyOf(category: CategoryId): readonly LookOption[] {
  return families[categoryFamilies[category]];
}

function clampChannel(value: number): number {
  return Math.max(0, Math.min(255, Math.round(value)));
}

function parseHex(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function toHex([r, g, b]: readonly number[]): string {
  return `#${[r, g, b]
    .map((c) =>
      clampChannel(c ?? 0)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** A brand colour softened into a backdrop a product stands out on (mostly light, the brand's hue). */
export function brandPalette(brandColor: string): Palette {
  const rgb = parseHex(brandColor);
  const mix = (amount: number, toward: number) => rgb.map((c) => c + (toward - c) * amount);
  return { backdrop: toHex(mix(0.78, 255)), surface: toHex(mix(0.68, 235)), accent: toHex(mix(0.9, 255)) };
}

export function recipeFor(option: LookOption, palette: Palette, seed: number): StyleRecipe {
  const random = seededRandom(seed ^ 0x9e3779b9);
  return {
    look: option.look,
    palette,
    light: {
      angle: Math.round((random() * 2 - 1) * 35),
      warmth: Math.max(-1, Math.min(1, option.warmth + (random() - 0.5) * 0.2)),
    },
    productScale: option.productScale,
    reflection: option.reflection,
    shadow: option.shadow,
    seed,
  };
}

export interface PlannedVariation {
  index: number;
  recipe: StyleRecipe;
  presetId: string | null;
}

export interface PlanOptions {
  generationUuid: string;
  category: CategoryId;
  count: number;
  /** The shop's brand colours (#rrggbb), when known: one variation is a sweep in the first one. */
  brandColors?: readonly string[];
  /** Saved recipes chosen by the user: one variation each, in order. */
  presets?: readonly { id: string; recipe: StyleRecipe }[];
}

/**
 * Picks the looks of a generation: deterministic for (generation, index), so a retried job plans the same.
 * Image 0 is the marketplace main image; the others are distinct looks of the category's family in an order
 * that differs from generation to generation.
 */
export function planVariations(options: PlanOptions): PlannedVariation[] {
  if (options.presets && options.presets.length > 0) {
    return options.presets.map((preset, index) => ({ index, recipe: preset.recipe, presetId: preset.id }));
  }
  const family = familyOf(options.category);
  const [main, ...others] = family;
  const shuffleRandom = seededRandom(hash32(`${options.generationUuid}:order`));
  const order = [...others];
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = Math.floor(shuffleRandom() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const brand = options.brandColors?.find((color) => /^#[0-9a-f]{6}$/i.test(color));
  const chosen = [main!, ...order];
  return Array.from({ length: options.count }, (_, index) => {
    const seed = hash32(`${options.generationUuid}:${index}`);
    const choice = chosen[index % chosen.length]!;
    const random = seededRandom(seed);
    let palette = pick(choice.palettes, random);
    // The shop's colour goes on the first styled scene (never on the marketplace image, which must stay white).
    if (brand && index === 1 && choice.look !== 'dark-premium') palette = brandPalette(brand);
    return { index, recipe: recipeFor(choice, palette, seed), presetId: null };
  });
}

/** Every look of a family rendered with its first palette: the contact sheet's rows. */
export function showcaseRecipes(category: CategoryId, seed: number): StyleRecipe[] {
  return familyOf(category).map((entry) => recipeFor(entry, entry.palettes[0]!, seed));
}

export { parseHex };
