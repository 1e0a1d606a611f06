import type { Category } from '@productgen/contracts';

/** Product categories (ids match auth's shop-context categories and the marketing category pages). */
export const categories = [
  { id: 'fashion', name: 'Fashion' },
  { id: 'jewelry', name: 'Jewelry' },
  { id: 'beauty', name: 'Beauty' },
  { id: 'home-decor', name: 'Home Decor' },
  { id: 'kitchen', name: 'Kitchen' },
  { id: 'electronics', name: 'Electronics' },
  { id: 'food', name: 'Food' },
  { id: 'fitness', name: 'Fitness' },
  { id: 'pet', name: 'Pet' },
  { id: 'baby', name: 'Baby' },
  { id: 'bags', name: 'Bags' },
  { id: 'toys', name: 'Toys' },
  { id: 'music', name: 'Music' },
  { id: 'furniture', name: 'Furniture' },
  { id: 'other', name: 'Other' },
] as const satisfies readonly Category[];

export type CategoryId = (typeof categories)[number]['id'];
export const OTHER_CATEGORY: CategoryId = 'other';

export function isCategoryId(value: string): value is CategoryId {
  return categories.some((category) => category.id === value);
}

/**
 * ImageNet class names (imagenet-simple-labels) that name a product of each category. Classes not listed
 * (animals other than pets, vehicles, buildings, landscapes) say nothing about the category.
 */
export const categoryLabels: Record<Exclude<CategoryId, 'other'>, readonly string[]> = {
  fashion: [
    'abaya', 'academic gown', 'apron', 'military cap', 'bikini', 'bolo tie', 'poke bonnet', 'bow tie', 'bra',
    'cardigan', 'cloak', 'clogs', 'cowboy boot', 'cowboy hat', 'feather boa', 'fur coat', 'gown', 'hoop skirt',
    'jeans', 'T-shirt', 'kimono', 'lab coat', 'slip-on shoe', 'tights', 'tank suit', 'military uniform',
    'miniskirt', 'mitten', 'overskirt', 'pajamas', 'poncho', 'running shoe', 'sandal', 'sarong', 'sock',
    'sombrero', 'suit', 'sunglass', 'sunglasses', 'scarf', 'sweatshirt', 'swimsuit', 'trench coat', 'vestment',
    'Windsor tie', 'wig', 'square academic cap', 'shower cap', 'swimming cap', 'handkerchief', 'buckle',
    'knot', 'velvet', 'wool', 'bulletproof vest', 'breastplate', 'chain mail', 'cuirass', 'bib',
  ],
  jewelry: ['necklace', 'chain', 'digital watch', 'analog clock', 'stopwatch', 'loupe', 'barrette', 'safety pin'],
  beauty: [
    'face powder', 'hair spray', 'lipstick', 'lotion', 'perfume', 'sunscreen', 'soap dispenser', 'pill bottle',
    'hair dryer', 'nipple', 'syringe', 'medicine chest',
  ],
  'home-decor': [
    'candle', 'lampshade', 'table lamp', 'vase', 'pot', 'wall clock', 'digital clock', 'hourglass', 'chime',
    'pinwheel', 'quilt', 'pillow', 'doormat', 'prayer rug', 'window shade', 'shower curtain', 'bath towel',
    'front curtain', 'birdhouse', 'mailbox', 'spotlight', 'torch', 'lighter', 'jack-o\'-lantern',
    'Christmas stocking', 'fire screen sheet', 'sundial', 'barometer', 'magnetic compass', 'plate rack', 'hamper',
    'shopping basket', 'umbrella', 'envelope', 'ring binder',
    'fountain pen', 'ballpoint pen', 'quill', 'paintbrush',
  ],
  kitchen: [
    'beer glass', 'bucket', 'cauldron', 'can opener', 'cleaver', 'cocktail shaker', 'coffee mug', 'coffeemaker',
    'corkscrew', 'Crock Pot', 'Dutch oven', 'dishcloth', 'espresso machine', 'frying pan', 'goblet', 'ladle',
    'measuring cup', 'microwave oven', 'mixing bowl', 'mortar', 'paper towel', 'pitcher', 'plate', 'salt shaker',
    'soup bowl', 'spatula', 'stove', 'strainer', 'teapot', 'toaster', 'tray', 'waffle iron', 'water jug',
    'whiskey jug', 'wok', 'wooden spoon', 'cup', 'rotisserie', 'dishwasher', 'refrigerator', 'beaker',
    'milk can', 'wine bottle', 'beer bottle', 'soda bottle', 'bottle cap', 'hot pot', 'paper knife',
  ],
  electronics: [
    'cassette player', 'CD player', 'mobile phone', 'computer keyboard', 'desktop computer',
    'rotary dial telephone', 'electric fan', 'hand-held computer', 'hard disk drive', 'home theater', 'iPod',
    'joystick', 'laptop computer', 'lens cap', 'speaker', 'microphone', 'modem', 'monitor', 'computer mouse',
    'notebook computer', 'oscilloscope', 'photocopier', 'Polaroid camera', 'power drill', 'printer', 'projector',
    'radio', 'reflex camera', 'remote control', 'CRT screen', 'space bar', 'switch', 'tape player', 'television',
    'typewriter keyboard', 'vacuum cleaner', 'washing machine', 'binoculars', 'cassette', 'entertainment center',
    'space heater', 'clothes iron', 'sewing machine', 'tripod', 'odometer', 'radio telescope', 'slot machine',
    'scoreboard', 'website', 'weighing scale',
  ],
  food: [
    'guacamole', 'consomme', 'trifle', 'ice cream', 'ice pop', 'baguette', 'bagel', 'pretzel', 'cheeseburger',
    'hot dog', 'mashed potato', 'cabbage', 'broccoli', 'cauliflower', 'zucchini', 'spaghetti squash',
    'acorn squash', 'butternut squash', 'cucumber', 'artichoke', 'bell pepper', 'cardoon', 'mushroom',
    'Granny Smith', 'strawberry', 'orange', 'lemon', 'fig', 'pineapple', 'banana', 'jackfruit', 'custard apple',
    'pomegranate', 'carbonara', 'chocolate syrup', 'dough', 'meatloaf', 'pizza', 'pot pie', 'burrito', 'red wine',
    'espresso', 'eggnog', 'corn', 'acorn', 'ear of corn', 'packet', 'carton', 'honeycomb', 'menu', 'bakery',
    'confectionery store', 'butcher shop', 'grocery store', 'restaurant', 'plastic bag',
  ],
  fitness: [
    'balance beam', 'barbell', 'baseball', 'basketball', 'croquet ball', 'dumbbell', 'football helmet',
    'golf ball', 'horizontal bar', 'knee pad', 'parallel bars', 'ping-pong ball', 'hockey puck', 'punching bag',
    'racket', 'rugby ball', 'ski', 'soccer ball', 'tennis ball', 'volleyball', 'water bottle', 'mountain bike',
    'crash helmet', 'paddle', 'sleeping bag', 'tent', 'snorkel', 'ski mask', 'scuba diver', 'neck brace',
  ],
  pet: ['muzzle', 'dog sled'],
  baby: ['bassinet', 'cradle', 'infant bed', 'diaper', 'stretcher'],
  bags: ['backpack', 'mail bag', 'purse', 'wallet', 'holster', 'scabbard', 'pencil case'],
  toys: [
    'teddy bear', 'jigsaw puzzle', 'piggy bank', 'balloon', 'toy store', 'go-kart', 'tricycle', 'unicycle',
    'carousel', 'comic book', 'crossword', 'maze', 'mask', 'whistle', 'bubble',
  ],
  music: [
    'accordion', 'acoustic guitar', 'banjo', 'bassoon', 'cello', 'cornet', 'drum', 'drumstick', 'electric guitar',
    'flute', 'French horn', 'gong', 'grand piano', 'harmonica', 'harp', 'maraca', 'marimba', 'oboe', 'ocarina',
    'organ', 'pan flute', 'plectrum', 'saxophone', 'steel drum', 'trombone', 'upright piano', 'violin', 'brass',
  ],
  furniture: [
    'barber chair', 'bookcase', 'chest', 'chiffonier', 'china cabinet', 'couch', 'desk', 'dining table',
    'filing cabinet', 'folding chair', 'four-poster bed', 'park bench', 'rocking chair', 'throne', 'wardrobe',
    'pedestal', 'shoji', 'sliding door', 'bathtub', 'toilet seat', 'sink', 'safe', 'crate',
    'barrel', 'patio',
  ],
};

/** Classes whose photo shows a pet rather than a product: dogs, wolves-like breeds and domestic cats. */
export const PET_CLASS_RANGES: readonly (readonly [number, number])[] = [
  [151, 268],
  [281, 285],
];

/** Short names for classes whose ImageNet name reads oddly as a product. */
export const productNameOverrides: Record<string, string> = {
  'T-shirt': 't-shirt',
  'tank suit': 'swimsuit',
  sunglass: 'sunglasses',
  'Polaroid camera': 'instant camera',
  'reflex camera': 'camera',
  pot: 'plant pot',
  chest: 'storage chest',
  packet: 'snack pack',
  hamper: 'basket',
  purse: 'handbag',
  'mail bag': 'messenger bag',
  'slip-on shoe': 'shoe',
  'running shoe': 'sneakers',
  'analog clock': 'watch',
  'digital watch': 'watch',
  'Crock Pot': 'slow cooker',
  'Dutch oven': 'cooking pot',
  'hand-held computer': 'smartphone',
  'notebook computer': 'laptop',
  'laptop computer': 'laptop',
  'desktop computer': 'computer',
  'CRT screen': 'monitor',
  'cassette player': 'cassette player',
  'infant bed': 'crib',
  couch: 'sofa',
  'Granny Smith': 'apple',
  'lens cap': 'camera',
  'water jug': 'water jug',
  nipple: 'bottle',
  'soap dispenser': 'pump bottle',
  lotion: 'lotion bottle',
  'pill bottle': 'bottle',
  'front curtain': 'curtain',
  'military cap': 'cap',
  'academic gown': 'gown',
  'square academic cap': 'cap',
  'Windsor tie': 'tie',
  lampshade: 'lamp',
  'table lamp': 'lamp',
  'plastic bag': 'bag',
  carton: 'box',
  stretcher: 'baby carrier',
  'scuba diver': 'diving gear',
  'barber chair': 'chair',
  'rocking chair': 'chair',
  'folding chair': 'chair',
  throne: 'armchair',
  consomme: 'soup',
  espresso: 'coffee',
  'hot pot': 'hot pot',
  'beer glass': 'glass',
  'Band-Aid': 'bandage',
};
