import { baseNameOf, capLongSide, clampMaxDimension, fitWithin, outputNames } from '../../src/algorithms/resize-plan';

describe('resizer plan', () => {
  it('forces the maximum dimension into 1…4096 whatever is typed', () => {
    expect(clampMaxDimension(0)).toBe(1);
    expect(clampMaxDimension(-20)).toBe(1);
    expect(clampMaxDimension(5000)).toBe(4096);
    expect(clampMaxDimension(800.6)).toBe(801);
    expect(clampMaxDimension(Number.NaN)).toBe(1024);
  });

  it('fits the long side and keeps the aspect ratio (enlarging too)', () => {
    expect(fitWithin(4000, 3000, 1024)).toEqual({ width: 1024, height: 768 });
    expect(fitWithin(300, 600, 1024)).toEqual({ width: 512, height: 1024 });
    expect(fitWithin(5000, 10, 100)).toEqual({ width: 100, height: 1 });
  });

  it('caps without enlarging', () => {
    expect(capLongSide(300, 200, 384)).toEqual({ width: 300, height: 200 });
    expect(capLongSide(1200, 600, 384)).toEqual({ width: 384, height: 192 });
  });

  it('names outputs after the originals or a base name with _1, _2 …', () => {
    expect(baseNameOf('a.b.png')).toBe('a.b');
    expect(outputNames(['mug.png', 'lamp.webp'], { kind: 'original' })).toEqual(['mug.jpg', 'lamp.jpg']);
    expect(outputNames(['mug.png', 'lamp.webp'], { kind: 'custom', baseName: ' shop ' })).toEqual([
      'shop_1.jpg',
      'shop_2.jpg',
    ]);
    expect(outputNames(['mug.png', 'mug.jpg'], { kind: 'original' })).toEqual(['mug.jpg', 'mug-1.jpg']);
    expect(outputNames(['mug.png'], { kind: 'custom', baseName: '  ' })).toEqual(['mug.jpg']);
  });
});
