import { Parser } from 'htmlparser2';
import { productCategories, type CategoryId, type ShopContextEntry } from '@productgen/contracts';

/** The words on a home page that point to each category (the categories themselves are the contracts'). */
const categoryWords: Record<CategoryId, readonly string[]> = {
  fashion: [
    'fashion',
    'apparel',
    'clothing',
    'clothes',
    'dress',
    'dresses',
    'shirt',
    'shirts',
    't-shirt',
    'hoodie',
    'jeans',
    'shoes',
    'sneakers',
    'boots',
    'wear',
    'outfit',
    'jacket',
  ],
  jewelry: [
    'jewelry',
    'jewellery',
    'necklace',
    'necklaces',
    'ring',
    'rings',
    'earrings',
    'bracelet',
    'bracelets',
    'pendant',
    'gold',
    'silver',
    'diamond',
    'gemstone',
  ],
  beauty: [
    'beauty',
    'cosmetics',
    'makeup',
    'skincare',
    'skin care',
    'serum',
    'lipstick',
    'perfume',
    'fragrance',
    'lotion',
    'nail polish',
    'haircare',
    'soap',
  ],
  'home-decor': [
    'home decor',
    'decor',
    'décor',
    'candle',
    'candles',
    'vase',
    'wall art',
    'poster',
    'pillow',
    'cushion',
    'rug',
    'rugs',
    'lamp',
    'ceramics',
    'pottery',
    'interior',
  ],
  kitchen: [
    'kitchen',
    'cookware',
    'mug',
    'mugs',
    'cup',
    'cups',
    'pot',
    'pots',
    'pan',
    'knife',
    'knives',
    'tableware',
    'utensils',
    'bakeware',
    'coffee maker',
  ],
  electronics: [
    'electronics',
    'gadget',
    'gadgets',
    'phone',
    'smartphone',
    'laptop',
    'headphones',
    'earbuds',
    'speaker',
    'charger',
    'camera',
    'cable',
    'tech',
    'smartwatch',
  ],
  food: [
    'food',
    'snack',
    'snacks',
    'coffee',
    'tea',
    'chocolate',
    'bakery',
    'sauce',
    'spices',
    'organic',
    'gourmet',
    'restaurant',
    'menu',
    'honey',
    'wine',
  ],
  fitness: [
    'fitness',
    'gym',
    'workout',
    'yoga',
    'sport',
    'sports',
    'dumbbell',
    'protein',
    'supplements',
    'running',
    'training',
    'exercise',
  ],
  pet: ['pet', 'pets', 'dog', 'dogs', 'cat', 'cats', 'puppy', 'kitten', 'leash', 'collar', 'pet food', 'aquarium'],
  baby: ['baby', 'babies', 'infant', 'toddler', 'newborn', 'nursery', 'stroller', 'diaper', 'diapers', 'maternity'],
  bags: [
    'bag',
    'bags',
    'handbag',
    'handbags',
    'backpack',
    'backpacks',
    'purse',
    'wallet',
    'wallets',
    'tote',
    'luggage',
    'suitcase',
  ],
  toys: ['toy', 'toys', 'game', 'games', 'puzzle', 'puzzles', 'lego', 'doll', 'dolls', 'plush', 'board game'],
  music: [
    'music',
    'guitar',
    'guitars',
    'piano',
    'drum',
    'drums',
    'vinyl',
    'instrument',
    'instruments',
    'ukulele',
    'violin',
    'audio',
  ],
  furniture: [
    'furniture',
    'sofa',
    'sofas',
    'chair',
    'chairs',
    'table',
    'tables',
    'desk',
    'bed',
    'beds',
    'shelf',
    'shelves',
    'cabinet',
    'wardrobe',
  ],
  other: [],
};

/** The generation categories a shop can be matched to, with the words that point to each. */
export const shopCategories = productCategories.map((category) => ({
  id: category.id,
  label: category.name,
  words: categoryWords[category.id],
}));

export type ShopCategoryId = CategoryId;

export interface HomePageText {
  /** Title, meta description/keywords, Open Graph texts: what the shop says it is. */
  headline: string;
  /** Headings and link texts: what the shop lists. */
  body: string;
  /** `theme-color` and friends, first. */
  declaredColors: string[];
  /** Every hex colour written in inline CSS or style attributes. */
  cssColors: string[];
}

export interface ShopProfile {
  shopContext: ShopContextEntry[];
  brandColors: string[];
}

const HEADLINE_META = new Set([
  'description',
  'keywords',
  'og:title',
  'og:description',
  'og:site_name',
  'twitter:title',
  'twitter:description',
]);
const COLOR_META = new Set(['theme-color', 'msapplication-tilecolor', 'msapplication-navbutton-color']);
const BODY_TEXT_TAGS = new Set(['a', 'h1', 'h2', 'h3', 'nav', 'button', 'li']);
/** Enough link and heading text to judge a shop; the rest of a big page adds nothing. */
const MAX_BODY_TEXT = 20_000;
const HEX_COLOR = /#(?:[0-9a-f]{6}|[0-9a-f]{3})\b/gi;

/** Collects the texts and colours of a home page that say what the shop sells and how it looks. */
export function extractHomePageText(html: string): HomePageText {
  const headline: string[] = [];
  let body = '';
  const declaredColors: string[] = [];
  const cssColors: string[] = [];
  let inTitle = false;
  let inStyle = false;
  let bodyDepth = 0;

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'title') inTitle = true;
        if (name === 'style') inStyle = true;
        if (BODY_TEXT_TAGS.has(name)) bodyDepth += 1;
        if (name === 'meta') {
          const key = (attributes.name ?? attributes.property ?? '').toLowerCase();
          const content = attributes.content ?? '';
          if (HEADLINE_META.has(key)) headline.push(content);
          if (COLOR_META.has(key)) declaredColors.push(content);
        }
        if (name === 'img' && attributes.alt && bodyDepth > 0) body += ` ${attributes.alt}`;
        if (attributes.style) cssColors.push(...(attributes.style.match(HEX_COLOR) ?? []));
      },
      ontext(text) {
        if (inTitle) headline.push(text);
        else if (inStyle) cssColors.push(...(text.match(HEX_COLOR) ?? []));
        else if (bodyDepth > 0 && body.length < MAX_BODY_TEXT) body += ` ${text}`;
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
        if (name === 'style') inStyle = false;
        if (BODY_TEXT_TAGS.has(name) && bodyDepth > 0) bodyDepth -= 1;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return { headline: headline.join(' '), body, declaredColors, cssColors };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const categoryPatterns = shopCategories.map((category) => ({
  category,
  patterns: category.words.map(
    (word) => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(word)}(?![\\p{L}\\p{N}])`, 'giu'),
  ),
}));

function countMatches(text: string, patterns: readonly RegExp[]): number {
  return patterns.reduce((total, pattern) => total + (text.match(pattern)?.length ?? 0), 0);
}

/** Words in the title and meta tags say more about a shop than a menu link does. */
const HEADLINE_WEIGHT = 3;
const MIN_SCORE = 2;
const MAX_CATEGORIES = 3;

/** The categories the page's words point to, strongest first (at most three; none when nothing stands out). */
export function pickCategories(text: Pick<HomePageText, 'headline' | 'body'>): ShopContextEntry[] {
  const scored = categoryPatterns
    .map(({ category, patterns }) => ({
      category,
      score: HEADLINE_WEIGHT * countMatches(text.headline, patterns) + countMatches(text.body, patterns),
    }))
    .filter((entry) => entry.score >= MIN_SCORE)
    .sort((a, b) => b.score - a.score);
  const top = scored[0]?.score ?? 0;
  // Keep runners-up only when they are a real part of the shop, not a stray word.
  return scored
    .filter((entry) => entry.score * 3 >= top)
    .slice(0, MAX_CATEGORIES)
    .map(({ category }) => ({ category_id: category.id, label: category.label }));
}

function normalizeHex(value: string): string | undefined {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  if (!match?.[1]) return undefined;
  const hex = match[1].toLowerCase();
  return `#${hex.length === 3 ? [...hex].map((digit) => digit + digit).join('') : hex}`;
}

/** Whites, blacks and greys are page furniture, not brand colours. */
function isChromatic(hex: string): boolean {
  const [r, g, b] = [1, 3, 5].map((offset) => parseInt(hex.slice(offset, offset + 2), 16));
  const max = Math.max(r ?? 0, g ?? 0, b ?? 0);
  const min = Math.min(r ?? 0, g ?? 0, b ?? 0);
  return max - min >= 40;
}

const MAX_BRAND_COLORS = 3;

/** Declared theme colours first, then the most used chromatic CSS colours. */
export function pickBrandColors(text: Pick<HomePageText, 'declaredColors' | 'cssColors'>): string[] {
  const counts = new Map<string, number>();
  for (const value of text.cssColors) {
    const hex = normalizeHex(value);
    if (hex && isChromatic(hex)) counts.set(hex, (counts.get(hex) ?? 0) + 1);
  }
  const byUse = [...counts].sort((a, b) => b[1] - a[1]).map(([hex]) => hex);
  const declared = text.declaredColors.map(normalizeHex).filter((hex): hex is string => hex !== undefined);
  return [...new Set([...declared, ...byUse])].slice(0, MAX_BRAND_COLORS);
}

export function deriveShopProfile(html: string): ShopProfile {
  const text = extractHomePageText(html);
  return { shopContext: pickCategories(text), brandColors: pickBrandColors(text) };
}
