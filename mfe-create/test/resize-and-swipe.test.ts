import { fitWithin, isImageFile } from '../src/shared/resize';
import { swipeDirection, swipeTarget } from '@productgen/ui-kit';

describe('fitWithin (1920×1080 box)', () => {
  it.each([
    [
      { width: 4032, height: 3024 },
      { width: 1440, height: 1080 },
    ],
    [
      { width: 3024, height: 4032 },
      { width: 810, height: 1080 },
    ],
    [
      { width: 3840, height: 1080 },
      { width: 1920, height: 540 },
    ],
    [
      { width: 1920, height: 1080 },
      { width: 1920, height: 1080 },
    ],
    [
      { width: 3840, height: 2160 },
      { width: 1920, height: 1080 },
    ],
    [
      { width: 800, height: 600 },
      { width: 800, height: 600 },
    ],
    [
      { width: 20000, height: 10 },
      { width: 1920, height: 1 },
    ],
  ])('fits %j into %j without enlarging', (size, expected) => {
    expect(fitWithin(size)).toEqual(expected);
  });

  it('keeps the aspect ratio within rounding', () => {
    const { width, height } = fitWithin({ width: 3000, height: 2000 });
    expect(width / height).toBeCloseTo(1.5, 2);
  });

  it('rejects sizes that are not positive', () => {
    expect(() => fitWithin({ width: 0, height: 10 })).toThrow(RangeError);
    expect(() => fitWithin({ width: Number.NaN, height: 10 })).toThrow(/positive size/);
  });
});

describe('isImageFile', () => {
  it('accepts only image/* types', () => {
    expect(isImageFile({ type: 'image/jpeg' })).toBe(true);
    expect(isImageFile({ type: 'image/heic' })).toBe(true);
    expect(isImageFile({ type: 'application/zip' })).toBe(false);
    expect(isImageFile({ type: '' })).toBe(false);
  });
});

describe('swipe', () => {
  it('needs at least 50 px', () => {
    expect(swipeDirection(200, 151)).toBeNull();
    expect(swipeDirection(200, 249)).toBeNull();
    expect(swipeDirection(200, 150)).toBe('next');
    expect(swipeDirection(200, 250)).toBe('previous');
  });

  it('stays within the list', () => {
    expect(swipeTarget(0, 5, 'next')).toBe(1);
    expect(swipeTarget(4, 5, 'next')).toBe(4);
    expect(swipeTarget(0, 5, 'previous')).toBe(0);
    expect(swipeTarget(3, 5, 'previous')).toBe(2);
    expect(swipeTarget(2, 5, null)).toBe(2);
    expect(swipeTarget(0, 0, 'next')).toBe(0);
  });
});
