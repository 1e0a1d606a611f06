/** What a seller would call a photo's product, and whether its cut-out could be posted. */
export interface PhotoJudgement {
  names: string[];
  postable: boolean;
  /** What is wrong with a cut-out judged not postable. */
  why?: string;
}

/**
 * Judged by eye on 2026-11-28 from a contact sheet of the cut-outs (main at 76b1eed): the names a seller would use
 * for each photo's product, and whether its cut-out could be posted as it is. Generic names ("product", the
 * category's noun) are judged by `judgeName`, not listed. Keys: paths under ../shared/photos.
 */
export const photoJudgements: Readonly<Record<string, PhotoJudgement>> = {
  'test/fashion/tshirt-grey-elephant.jpg': {
    names: ['t-shirt', 'tee'],
    postable: true,
  },
  'test/fashion/dress-patterned-hanger.jpg': {
    names: ['dress'],
    postable: true,
  },
  'test/fashion/jacket-blue-puffer.jpg': {
    names: ['puffer jacket', 'jacket', 'down jacket', 'coat'],
    postable: true,
  },
  'test/fashion/sneakers-white-hightop.jpg': {
    names: ['high-top sneakers', 'sneakers', 'sneaker', 'shoes'],
    postable: true,
  },
  'test/fashion/boot-white-fringe.jpg': {
    names: ['boot', 'boots', 'cowboy boot'],
    postable: true,
  },
  'test/jewelry/watch-gold-mesh.jpg': {
    names: ['wristwatch', 'watch'],
    postable: true,
  },
  'test/beauty/serum-dropper-bottle.jpg': {
    names: ['serum bottle', 'dropper bottle', 'serum', 'cosmetic bottle'],
    postable: true,
  },
  'test/beauty/perfume-bottle.jpg': {
    names: ['perfume bottle', 'perfume'],
    postable: true,
  },
  'test/home-decor/vase-red-dried-flowers.jpg': {
    names: ['vase', 'dried flowers'],
    postable: false,
    why: 'dried flowers lost, a neighbouring object kept',
  },
  'test/home-decor/pendant-lamp.jpg': {
    names: ['pendant lamp', 'lamp', 'ceiling lamp'],
    postable: true,
  },
  'test/home-decor/candle-holder-silver.jpg': {
    names: ['candle holder', 'candlestick'],
    postable: true,
  },
  'test/home-decor/alarm-clock-yellow.jpg': {
    names: ['alarm clock', 'clock'],
    postable: false,
    why: 'a decoration beside the clock kept',
  },
  'test/kitchen/teapot-clay.jpg': {
    names: ['teapot'],
    postable: true,
  },
  'test/kitchen/toaster-chrome.jpg': {
    names: ['toaster'],
    postable: true,
  },
  'test/kitchen/moka-pot.jpg': {
    names: ['moka pot', 'coffee maker', 'espresso maker'],
    postable: false,
    why: 'the camping stove under the pot kept',
  },
  'test/kitchen/salt-pepper-grinders.jpg': {
    names: [
      'salt and pepper grinders',
      'salt shaker',
      'pepper mill',
      'grinder',
      'salt and pepper shakers',
      'grinders',
      'pepper grinder',
    ],
    postable: true,
  },
  'test/electronics/headphones-black.jpg': {
    names: ['headphones'],
    postable: true,
  },
  'test/electronics/instant-camera.jpg': {
    names: ['instant camera', 'camera'],
    postable: true,
  },
  'test/electronics/compact-camera.jpg': {
    names: ['compact camera', 'camera'],
    postable: true,
  },
  'test/electronics/speaker-box.jpg': {
    names: ['speaker'],
    postable: true,
  },
  'test/food/pepperoni-pizza.jpg': {
    names: ['pizza'],
    postable: true,
  },
  'test/food/cheeseburger-fries.jpg': {
    names: ['cheeseburger', 'burger'],
    postable: true,
  },
  'test/food/nut-snack-pouches.jpg': {
    names: ['snack pouches', 'snack', 'nuts', 'pouches'],
    postable: false,
    why: 'only the nut pile, the pouches lost',
  },
  'test/fitness/boxing-gloves.jpg': {
    names: ['boxing gloves', 'boxing gear'],
    postable: true,
  },
  'test/fitness/water-bottle.jpg': {
    names: ['water bottle', 'bottle'],
    postable: true,
  },
  'test/pet/dog-muzzle.jpg': {
    names: ['dog muzzle', 'muzzle'],
    postable: true,
  },
  'test/baby/baby-bodysuit-white.jpg': {
    names: ['baby bodysuit', 'bodysuit', 'onesie'],
    postable: true,
  },
  'test/baby/bassinet.jpg': {
    names: ['bassinet', 'cradle'],
    postable: true,
  },
  'test/bags/backpack-red.jpg': {
    names: ['backpack'],
    postable: true,
  },
  'test/bags/tote-green.jpg': {
    names: ['tote bag', 'tote', 'bag'],
    postable: true,
  },
  'test/toys/rubber-duck.jpg': {
    names: ['rubber duck', 'bath toy'],
    postable: true,
  },
  'test/toys/robot-toy.jpg': {
    names: ['toy robot', 'robot'],
    postable: true,
  },
  'test/toys/teddy-bear.jpg': {
    names: ['teddy bear', 'plush toy'],
    postable: true,
  },
  'test/music/electric-guitar-red.jpg': {
    names: ['electric guitar', 'guitar'],
    postable: true,
  },
  'test/furniture/shell-chair-black.jpg': {
    names: ['chair'],
    postable: true,
  },
  'test/furniture/lounge-chair-green.jpg': {
    names: ['lounge chair', 'chair', 'armchair'],
    postable: true,
  },
  'eval/fashion/sunglasses-pink-on-sheet.jpg': {
    names: ['sunglasses'],
    postable: true,
  },
  'eval/fashion/sneaker-iridescent-pavement.jpg': {
    names: ['sneaker', 'sneakers', 'trainers', 'running shoe', 'shoe'],
    postable: true,
  },
  'eval/fashion/tshirt-wolf-print.jpg': {
    names: ['t-shirt', 'tee'],
    postable: true,
  },
  'eval/fashion/cap-green-in-hand.jpg': {
    names: ['cap', 'baseball cap', 'hat'],
    postable: false,
    why: 'the hand and arm kept',
  },
  'eval/fashion/boot-in-hand.jpg': {
    names: ['boot', 'boots'],
    postable: false,
    why: 'the fingers holding the boot kept',
  },
  'eval/fashion/slippers-floral-pair.jpg': {
    names: ['slippers', 'slides', 'sandals'],
    postable: true,
  },
  'eval/fashion/sunglasses-on-sand.jpg': {
    names: ['sunglasses'],
    postable: true,
  },
  'eval/fashion/jeans-stack.jpg': {
    names: ['jeans'],
    postable: false,
    why: 'a scrap of one fold instead of the stack',
  },
  'eval/fashion/tshirts-on-rack.jpg': {
    names: ['t-shirt', 't-shirts', 'tshirts'],
    postable: false,
    why: 'the rail instead of the t-shirts',
  },
  'eval/fashion/linen-dress-worn.jpg': {
    names: ['linen dress', 'dress'],
    postable: true,
  },
  'eval/fashion/loafers-suede.jpg': {
    names: ['loafers', 'shoes', 'slip-on shoes'],
    postable: true,
  },
  'eval/jewelry/watch-analog-black.jpg': {
    names: ['wristwatch', 'watch'],
    postable: true,
  },
  'eval/beauty/cosmetic-tubes-on-towel.jpg': {
    names: ['cosmetic tube', 'cosmetic tubes', 'cream tube', 'tube'],
    postable: true,
  },
  'eval/beauty/cosmetic-bottles-white.jpg': {
    names: ['cosmetic bottle', 'cosmetic bottles', 'pump bottle', 'lotion bottle', 'bottle'],
    postable: true,
  },
  'eval/beauty/cream-tube-dried-flowers.jpg': {
    names: ['cream tube', 'tube', 'lotion', 'sunscreen'],
    postable: true,
  },
  'eval/beauty/clear-bottle-bath-salts.jpg': {
    names: ['cosmetic bottle', 'bottle', 'bath salts'],
    postable: false,
    why: 'the cast shadow kept with the bottle',
  },
  'eval/home-decor/vases-white-ribbed.jpg': {
    names: ['vase', 'vases'],
    postable: true,
  },
  'eval/home-decor/glass-vase-monstera.jpg': {
    names: ['glass vase', 'vase'],
    postable: false,
    why: 'the leaf without the glass vase',
  },
  'eval/home-decor/terrarium-glass.jpg': {
    names: ['terrarium'],
    postable: true,
  },
  'eval/home-decor/succulent-ceramic-pot.jpg': {
    names: ['potted succulent', 'succulent', 'plant pot', 'potted plant'],
    postable: true,
  },
  'eval/home-decor/succulents-several.jpg': {
    names: ['potted succulents', 'succulents', 'potted plants', 'succulent'],
    postable: true,
  },
  'eval/home-decor/aloe-white-pot.jpg': {
    names: ['potted plant', 'aloe', 'plant pot'],
    postable: false,
    why: 'the white pot mostly lost',
  },
  'eval/home-decor/reed-diffuser-candles.jpg': {
    names: ['reed diffuser', 'diffuser'],
    postable: false,
    why: 'the diffuser lost, two candles apart',
  },
  'eval/kitchen/bowl-blueberries.jpg': {
    names: ['bowl'],
    postable: true,
  },
  'eval/kitchen/glass-milk-bottle.jpg': {
    names: ['glass bottle', 'milk bottle', 'bottle'],
    postable: true,
  },
  'eval/kitchen/pour-over-kettle-hands.jpg': {
    names: ['pour-over coffee set', 'kettle', 'coffee set', 'pour-over kettle'],
    postable: false,
    why: 'hands and arms kept',
  },
  'eval/kitchen/portable-espresso-in-hand.jpg': {
    names: ['portable espresso maker', 'espresso maker', 'coffee maker'],
    postable: false,
    why: 'the arm kept',
  },
  'eval/electronics/usb-cable-white.jpg': {
    names: ['USB cable', 'cable'],
    postable: true,
  },
  'eval/electronics/camera-lens-sofa.jpg': {
    names: ['camera lens', 'lens'],
    postable: true,
  },
  'eval/electronics/camera-hanging-strap.jpg': {
    names: ['film camera', 'camera'],
    postable: true,
  },
  'eval/electronics/ethernet-cable-red.jpg': {
    names: ['ethernet cable', 'cable'],
    postable: true,
  },
  'eval/electronics/drone-white.jpg': {
    names: ['drone'],
    postable: true,
  },
  'eval/electronics/game-controllers.jpg': {
    names: ['game controller', 'controller', 'gamepad', 'game controllers'],
    postable: true,
  },
  'eval/electronics/keyboard-on-marble.jpg': {
    names: ['keyboard', 'computer keyboard'],
    postable: true,
  },
  'eval/electronics/headphones-worn.jpg': {
    names: ['headphones'],
    postable: false,
    why: 'the person wearing them kept',
  },
  'eval/food/pretzels-pile.jpg': {
    names: ['pretzels', 'pretzel'],
    postable: false,
    why: 'one pretzel of the pile',
  },
  'eval/food/pastries-several.jpg': {
    names: ['flatbread', 'pastries', 'bread'],
    postable: true,
  },
  'eval/food/loose-leaf-tea.jpg': {
    names: ['loose-leaf tea', 'tea'],
    postable: false,
    why: 'the infuser ball without the tea',
  },
  'eval/food/coffee-pouch-kraft.jpg': {
    names: ['coffee pouch', 'coffee', 'pouch'],
    postable: true,
  },
  'eval/fitness/skateboard-crosswalk.jpg': {
    names: ['skateboard'],
    postable: true,
  },
  'eval/fitness/road-bike-dark.jpg': {
    names: ['road bike', 'bike', 'bicycle'],
    postable: true,
  },
  'eval/fitness/football-grass.jpg': {
    names: ['football', 'soccer ball', 'ball'],
    postable: true,
  },
  'eval/fitness/skipping-rope.jpg': {
    names: ['skipping rope', 'jump rope'],
    postable: true,
  },
  'eval/fitness/city-bike-red-wall.jpg': {
    names: ['city bike', 'bike', 'bicycle'],
    postable: true,
  },
  'eval/fitness/sports-bra-worn.jpg': {
    names: ['sports bra', 'bra'],
    postable: true,
  },
  'eval/fitness/push-up-bars.jpg': {
    names: ['push-up bars'],
    postable: true,
  },
  'eval/baby/bodysuit-car-print.jpg': {
    names: ['baby bodysuit', 'bodysuit', 'onesie'],
    postable: true,
  },
  'eval/baby/bodysuit-on-play-mat.jpg': {
    names: ['baby bodysuit', 'bodysuit', 'onesie'],
    postable: false,
    why: 'a piece of the play mat kept',
  },
  'eval/baby/bodysuit-white-on-sofa.jpg': {
    names: ['baby bodysuit', 'bodysuit', 'onesie'],
    postable: true,
  },
  'eval/baby/sleepsuit-polka-dot.jpg': {
    names: ['baby sleepsuit', 'sleepsuit', 'pajamas'],
    postable: true,
  },
  'eval/toys/sloth-plush-riverside.jpg': {
    names: ['plush toy', 'stuffed animal', 'soft toy', 'plush'],
    postable: true,
  },
  'eval/toys/monster-plush-office.jpg': {
    names: ['plush toy', 'stuffed animal', 'soft toy', 'plush'],
    postable: true,
  },
  'eval/toys/rc-car-on-rug.jpg': {
    names: ['toy car', 'rc car', 'remote control car'],
    postable: true,
  },
  'eval/toys/husky-plush-grass.jpg': {
    names: ['plush toy', 'stuffed animal', 'soft toy', 'plush'],
    postable: true,
  },
  'eval/bags/backpack-grey.jpg': {
    names: ['backpack'],
    postable: true,
  },
  'eval/bags/messenger-bag-black.jpg': {
    names: ['messenger bag', 'bag', 'shoulder bag'],
    postable: true,
  },
  'eval/bags/tote-brown.jpg': {
    names: ['duffel bag', 'bag', 'travel bag', 'tote', 'tote bag'],
    postable: true,
  },
  'eval/bags/backpack-in-hand.jpg': {
    names: ['backpack'],
    postable: true,
  },
  'eval/furniture/white-chair-balloon.jpg': {
    names: ['chair'],
    postable: false,
    why: 'the balloon instead of the chair',
  },
  'eval/furniture/two-chairs.jpg': {
    names: ['chair', 'chairs'],
    postable: true,
  },
  'eval/furniture/stool-white.jpg': {
    names: ['stool'],
    postable: true,
  },
  'eval/furniture/side-table-bedroom.jpg': {
    names: ['side table', 'table', 'nightstand', 'bedside table'],
    postable: false,
    why: 'the clock on the table instead of the table',
  },
  'eval/furniture/side-table-lamp.jpg': {
    names: ['bedside table', 'side table', 'nightstand', 'table'],
    postable: false,
    why: 'a piece of the wall kept with the table',
  },
  'eval/music/record-player.jpg': {
    names: ['record player', 'turntable'],
    postable: false,
    why: 'the platter without the player',
  },
  'eval/music/turntable-bw.jpg': {
    names: ['turntable', 'record player'],
    postable: false,
    why: 'the tone arm without the turntable',
  },
  'eval/music/guitar-pedal.jpg': {
    names: ['guitar effects pedal', 'guitar pedal', 'effects pedal', 'pedal'],
    postable: true,
  },
};
