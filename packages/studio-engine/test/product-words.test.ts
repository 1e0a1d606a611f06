import { fileNameWords, productInFileName } from '../src/analysis/product-words';

describe('the product a file name names', () => {
  test.each([
    ['blue-dress.jpg', 'dress', ['fashion']],
    ['ceramic_mug_02.png', 'mug', ['kitchen']],
    ['MugOnTable.jpg', 'mug', ['kitchen']],
    ['Vintage Leather Backpack (2).JPG', 'backpack', ['bags']],
    ['tshirts-on-rack.jpg', 't-shirt', ['fashion']],
    ['side-table-lamp.jpg', 'side table', ['furniture']],
    ['pendant-lamp.jpg', 'pendant lamp', ['home-decor']],
    ['kids_tote_bag_green.webp', 'tote bag', ['bags']],
    ['bodysuit-car-print.jpg', 'bodysuit', ['fashion', 'baby']],
    ['dresses.jpeg', 'dress', ['fashion']],
  ])('%s → %s', (fileName, name, categories) => {
    expect(productInFileName(fileName)).toEqual({ name, categories });
  });

  test('the scene after "on", "in", "with" … is not the product', () => {
    expect(productInFileName('white-candle-on-grass.jpg')?.name).toBe('candle');
    expect(productInFileName('lens-on-sofa.jpg')?.name).toBe('lens');
    expect(productInFileName('hands-with-mug.jpg')).toBeUndefined();
  });

  test('camera, scanner and shop file names say nothing', () => {
    for (const name of [
      'IMG_2041.jpg',
      'DSC00012.JPG',
      'photo (3).png',
      'PXL_20261127_101112.jpg',
      'SKU-1234-front.jpg',
    ])
      expect(productInFileName(name)).toBeUndefined();
  });

  test('colours, materials and sizes are not products', () => {
    expect(productInFileName('gold-silver-large-linen.jpg')).toBeUndefined();
  });

  test('words: separators, camelCase, numbers and the extension', () => {
    expect(fileNameWords('folder/RedWine_Glass-02.final.PNG')).toEqual(['red', 'wine', 'glass', 'final']);
  });
});
