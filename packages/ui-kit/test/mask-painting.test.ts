import { copyMask, paintSegment, sameMask, type Mask } from '../src/mask-painting';

const blank = (width: number, height: number): Mask => ({ data: new Uint8Array(width * height), width, height });
const kept = (mask: Mask) => mask.data.reduce((sum, value) => sum + (value === 255 ? 1 : 0), 0);

describe('mask painting', () => {
  test('a click paints a disc of the radius around the point', () => {
    const mask = blank(21, 21);
    const dirty = paintSegment(mask, { x: 10.5, y: 10.5 }, { x: 10.5, y: 10.5 }, 3, 255);
    expect(dirty).toEqual({ left: 7, top: 7, right: 15, bottom: 15 });
    // Pixel centres within 3 px of (10.5, 10.5): the 29 of a radius-3 disc on the grid.
    expect(kept(mask)).toBe(29);
    expect(mask.data[10 * 21 + 10]).toBe(255);
    expect(mask.data[10 * 21 + 13]).toBe(255);
    expect(mask.data[10 * 21 + 14]).toBe(0);
    expect(mask.data[13 * 21 + 13]).toBe(0);
  });

  test('a stroke covers the whole segment with round ends, and Remove paints 0', () => {
    const mask = blank(30, 10);
    mask.data.fill(255);
    paintSegment(mask, { x: 5.5, y: 5.5 }, { x: 24.5, y: 5.5 }, 1, 0);
    for (let x = 5; x <= 24; x += 1) {
      expect(mask.data[5 * 30 + x]).toBe(0);
      expect(mask.data[4 * 30 + x]).toBe(0);
      expect(mask.data[6 * 30 + x]).toBe(0);
      expect(mask.data[3 * 30 + x]).toBe(255);
    }
    expect(mask.data[5 * 30 + 4]).toBe(0);
    expect(mask.data[5 * 30 + 3]).toBe(255);
  });

  test('a stroke outside the mask changes nothing; partly outside is clipped', () => {
    const mask = blank(10, 10);
    expect(paintSegment(mask, { x: -20, y: -20 }, { x: -15, y: -18 }, 2, 255)).toBeNull();
    expect(kept(mask)).toBe(0);
    expect(paintSegment(mask, { x: -5, y: 0.5 }, { x: 3.5, y: 0.5 }, 0.5, 255)).toEqual({
      left: 0,
      top: 0,
      right: 5,
      bottom: 2,
    });
    expect(kept(mask)).toBe(4);
  });

  test('copies are independent; sameMask compares size and every pixel', () => {
    const mask = blank(4, 4);
    const copy = copyMask(mask);
    expect(sameMask(mask, copy)).toBe(true);
    copy.data[5] = 255;
    expect(sameMask(mask, copy)).toBe(false);
    expect(mask.data[5]).toBe(0);
    expect(sameMask(mask, blank(2, 8))).toBe(false);
  });
});
