import type { CategoryId } from '@productgen/contracts';

/**
 * Product nouns a seller writes in a file name ("blue-dress.jpg", "ceramic_mug_02.png"), with the categories each
 * belongs to and the name it gives the product. A word that fits several categories lists them all (it then
 * weighs for each, and the photo decides). Only nouns: colours, materials and sizes say nothing of what the
 * product is. Plurals are found by the reader (`productWordsIn`), not listed.
 */
interface ProductWord {
  /** The spellings, lower case; a phrase of several words matches those words in a row. */
  words: readonly string[];
  /** The product's name when this word names it. */
  name: string;
  categories: readonly CategoryId[];
}

const entries: ProductWord[] = [];
function add(categories: CategoryId | readonly CategoryId[], ...groups: Array<string | readonly string[]>): void {
  for (const group of groups) {
    const words = typeof group === 'string' ? [group] : group;
    entries.push({ words, name: words[0]!, categories: typeof categories === 'string' ? [categories] : categories });
  }
}

add(
  'fashion',
  ['t-shirt', 'tshirt', 't shirt', 'tee'],
  'shirt',
  'blouse',
  'dress',
  'skirt',
  'jeans',
  'trousers',
  ['pants', 'pant'],
  'shorts',
  'leggings',
  'jacket',
  ['puffer jacket', 'puffer'],
  'coat',
  'hoodie',
  'sweater',
  'sweatshirt',
  'cardigan',
  'jumper',
  'suit',
  'blazer',
  'vest',
  'scarf',
  ['cap', 'baseball cap'],
  'hat',
  'beanie',
  'gloves',
  ['sneakers', 'sneaker', 'trainers'],
  ['shoes', 'shoe'],
  ['boots', 'boot'],
  ['sandals', 'sandal'],
  ['slippers', 'slipper', 'slides'],
  ['loafers', 'loafer'],
  ['heels', 'high heels', 'pumps'],
  'sunglasses',
  'belt',
  'tie',
  'socks',
  'pajamas',
  'lingerie',
  'swimsuit',
  'bikini',
);
add(
  'jewelry',
  'necklace',
  ['ring', 'engagement ring', 'wedding ring'],
  'earrings',
  'bracelet',
  'bangle',
  'pendant',
  'brooch',
  'anklet',
  'cufflinks',
  ['watch', 'wristwatch', 'smartwatch'],
);
add(
  'beauty',
  'serum',
  'perfume',
  ['cologne', 'fragrance'],
  'lipstick',
  'lip gloss',
  'mascara',
  'eyeliner',
  'foundation',
  'concealer',
  'blush',
  'palette',
  'nail polish',
  'lotion',
  ['moisturizer', 'moisturiser'],
  ['cream', 'face cream', 'hand cream'],
  'cream tube',
  ['cosmetic bottle', 'cosmetic bottles'],
  ['cosmetic tube', 'cosmetic tubes', 'cosmetics tube'],
  ['cosmetics', 'cosmetic'],
  'sunscreen',
  'shampoo',
  'conditioner',
  'soap',
  'body wash',
  'face mask',
  'makeup brush',
  ['hair dryer', 'hairdryer'],
  'bath salts',
);
add(
  'home-decor',
  'vase',
  'candle',
  'candle holder',
  ['candlestick', 'candlesticks'],
  ['lamp', 'table lamp', 'floor lamp', 'pendant lamp'],
  'lampshade',
  ['clock', 'wall clock', 'alarm clock'],
  'mirror',
  ['picture frame', 'photo frame'],
  'cushion',
  ['pillow', 'throw pillow'],
  'blanket',
  'rug',
  'curtain',
  'poster',
  'painting',
  'wall art',
  'figurine',
  'sculpture',
  'ornament',
  'terrarium',
  ['reed diffuser', 'diffuser'],
  ['plant pot', 'planter', 'flower pot'],
  ['potted plant', 'houseplant', 'house plant'],
  ['succulent', 'succulents'],
  ['aloe', 'cactus'],
  'basket',
);
add(
  'kitchen',
  ['mug', 'coffee mug'],
  'cup',
  'teacup',
  'bowl',
  'plate',
  'dish',
  'teapot',
  'kettle',
  ['pour-over kettle', 'pour over kettle', 'pour-over'],
  'toaster',
  'blender',
  ['coffee maker', 'coffeemaker', 'coffee machine'],
  ['espresso maker', 'espresso machine', 'espresso'],
  'moka pot',
  ['french press', 'cafetiere'],
  ['saucepan', 'pan', 'frying pan', 'skillet', 'wok'],
  ['dutch oven', 'casserole'],
  ['knife', 'kitchen knife'],
  'cutting board',
  ['grinder', 'pepper mill', 'salt grinder', 'pepper grinder'],
  ['salt shaker', 'pepper shaker'],
  'spatula',
  'whisk',
  'colander',
  'jar',
  'wine glass',
  'carafe',
  'pitcher',
  ['milk bottle', 'glass bottle'],
  'cutlery',
  'tray',
);
add(
  'electronics',
  'headphones',
  ['earbuds', 'earphones'],
  'speaker',
  ['camera', 'instant camera', 'film camera', 'compact camera', 'dslr'],
  ['camera lens', 'lens'],
  ['keyboard', 'computer keyboard'],
  ['mouse', 'computer mouse'],
  'laptop',
  ['phone', 'smartphone'],
  'phone case',
  'tablet',
  'monitor',
  ['charger', 'power bank'],
  ['cable', 'usb cable', 'ethernet cable', 'charging cable'],
  'drone',
  ['game controller', 'controller', 'gamepad'],
  'console',
  'router',
  'radio',
  'microphone',
  'webcam',
);
add(
  'food',
  'pizza',
  ['burger', 'cheeseburger', 'hamburger'],
  ['pretzels', 'pretzel'],
  ['pastries', 'pastry'],
  'flatbread',
  'bread',
  'cake',
  'cupcake',
  'cookies',
  'chocolate',
  'candy',
  ['tea', 'loose-leaf tea', 'loose leaf tea'],
  ['coffee', 'coffee beans', 'coffee pouch'],
  'honey',
  'jam',
  'sauce',
  'spices',
  'nuts',
  'snack',
  'granola',
  'olive oil',
  'wine',
  'beer',
  'juice',
  'ice cream',
);
add(
  'fitness',
  ['dumbbell', 'dumbbells'],
  'kettlebell',
  ['yoga mat', 'exercise mat'],
  ['skipping rope', 'jump rope'],
  ['boxing gloves', 'boxing glove'],
  'resistance band',
  ['push-up bars', 'push up bars', 'pushup bars'],
  'water bottle',
  ['bike', 'bicycle', 'road bike', 'city bike', 'mountain bike'],
  'skateboard',
  ['football', 'soccer ball', 'basketball', 'volleyball', 'tennis ball'],
  'tennis racket',
  ['sports bra', 'sport bra'],
  'helmet',
  'treadmill',
);
add(
  'pet',
  ['dog collar', 'cat collar', 'collar'],
  ['leash', 'dog leash'],
  'dog muzzle',
  'muzzle',
  ['pet bed', 'dog bed', 'cat bed'],
  ['dog toy', 'cat toy', 'pet toy'],
  ['pet bowl', 'dog bowl', 'cat bowl'],
  'scratching post',
  ['pet food', 'dog food', 'cat food'],
);
add(
  'baby',
  ['baby bodysuit', 'onesie'],
  ['baby sleepsuit', 'sleepsuit'],
  ['bib', 'baby bib'],
  'bassinet',
  'crib',
  ['stroller', 'pram', 'pushchair'],
  ['baby bottle', 'feeding bottle'],
  'pacifier',
  'rattle',
  'diaper bag',
  ['diapers', 'nappies'],
  'high chair',
);
add(['fashion', 'baby'], 'bodysuit', 'romper');
add(['toys', 'electronics'], 'robot');
add(
  'bags',
  'backpack',
  ['tote bag', 'tote'],
  ['handbag', 'purse'],
  ['messenger bag', 'shoulder bag', 'crossbody bag'],
  ['duffel bag', 'duffle bag', 'travel bag', 'weekender'],
  'clutch',
  'wallet',
  'suitcase',
  'luggage',
  'briefcase',
  'laptop bag',
  'bag',
);
add(
  'toys',
  ['plush toy', 'plush', 'stuffed animal', 'soft toy', 'plushie'],
  'teddy bear',
  ['toy car', 'rc car', 'remote control car'],
  'toy robot',
  'rubber duck',
  'doll',
  'action figure',
  ['building blocks', 'blocks', 'lego'],
  'puzzle',
  'board game',
  'kite',
  'yo-yo',
  'toy',
);
add(
  'music',
  ['guitar', 'electric guitar', 'acoustic guitar', 'bass guitar'],
  ['guitar pedal', 'guitar effects pedal', 'effects pedal', 'pedal'],
  'ukulele',
  'violin',
  'drum',
  ['piano', 'keyboard piano'],
  'synthesizer',
  'amplifier',
  ['record player', 'turntable'],
  ['vinyl', 'vinyl record'],
  'harmonica',
  'flute',
  'saxophone',
  'trumpet',
);
add(
  'furniture',
  ['chair', 'chairs', 'armchair', 'lounge chair', 'dining chair', 'office chair'],
  'stool',
  ['sofa', 'couch'],
  ['table', 'dining table', 'coffee table'],
  ['side table', 'bedside table', 'nightstand'],
  'desk',
  ['shelf', 'bookshelf', 'bookcase'],
  'cabinet',
  'dresser',
  'bed',
  'bench',
  'ottoman',
);

/** Spellings that are not how the product is written in a name. */
const writtenAs: Readonly<Record<string, string>> = {
  tshirt: 't-shirt',
  't shirt': 't-shirt',
  coffeemaker: 'coffee maker',
  hairdryer: 'hair dryer',
  'push up bars': 'push-up bars',
  'pushup bars': 'push-up bars',
  'pour over kettle': 'pour-over kettle',
  'pour over': 'pour-over kettle',
  'pour-over': 'pour-over kettle',
  'duffle bag': 'duffel bag',
  plushie: 'plush toy',
  plush: 'plush toy',
  'rc car': 'RC car',
  'usb cable': 'USB cable',
  espresso: 'espresso maker',
  dslr: 'camera',
  'loose leaf tea': 'loose-leaf tea',
};

/** Every spelling as its words, with its categories; the longest first, so "tote bag" wins over "bag". */
const spellings = entries
  .flatMap((entry) =>
    entry.words.map((spelling) => ({
      tokens: spelling.split(/[\s-]+/),
      name: writtenAs[spelling] ?? spelling,
      categories: entry.categories,
    })),
  )
  .sort((a, b) => b.tokens.length - a.tokens.length);

/** Words after which a file name says where the product is, not what it is ("mug-on-table.jpg"). */
const SCENE_WORDS = new Set(['on', 'in', 'at', 'with', 'by', 'against', 'over', 'under', 'near', 'beside', 'from']);

/** The singular a plain English plural most likely comes from ("dresses" → "dress", "mugs" → "mug"). */
function singulars(token: string): string[] {
  const found = [token];
  if (token.endsWith('es')) found.push(token.slice(0, -2));
  if (token.endsWith('s')) found.push(token.slice(0, -1));
  return found;
}

/** A file name's words: lower case, split at separators and camelCase, numbers and the extension dropped. */
export function fileNameWords(fileName: string): string[] {
  const base = fileName.replace(/^.*[\\/]/, '').replace(/\.[a-z0-9]{2,5}$/i, '');
  return base
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((word) => word.length > 1);
}

export interface NamedProduct {
  /** How a seller writes it ("pendant lamp", "t-shirt"). */
  name: string;
  categories: readonly CategoryId[];
}

/**
 * The product a file name names: its first product noun, read left to right taking the longest phrase at each
 * word, before any word that starts the scene ("on", "in", "with" …). Undefined for names that say nothing
 * ("IMG_2041.jpg", "DSC00012.JPG", "photo (3).png").
 */
export function productInFileName(fileName: string): NamedProduct | undefined {
  const words = fileNameWords(fileName);
  for (let start = 0; start < words.length && !SCENE_WORDS.has(words[start]!); start += 1) {
    const found = spellings.find(
      ({ tokens }) =>
        start + tokens.length <= words.length &&
        tokens.every((token, k) => singulars(words[start + k]!).includes(token)),
    );
    if (found) return { name: found.name, categories: found.categories };
  }
  return undefined;
}
