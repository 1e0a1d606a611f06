/** Marketplace main-image rule: pure #FFFFFF background and the product filling about 85% of the frame. */
export const MARKETPLACE_FILL = { target: 0.85, min: 0.8, max: 0.9 } as const;

export interface MarketplaceCheck {
  ok: boolean;
  /** Share of the background (no product pixel) that is exactly #FFFFFF. */
  whiteBackground: number;
  /** Longer side of the product's box over the frame's. */
  fill: number;
  problems: string[];
}

/**
 * Verifies a rendered marketplace image on its raw pixels: every pixel the product does not cover must be exactly
 * #FFFFFF, and the product's box must fill 80–90% of the frame (85% targeted).
 */
export function checkMarketplaceWhite(
  rgb: Uint8Array,
  width: number,
  height: number,
  coverage: Uint8Array,
): MarketplaceCheck {
  let background = 0;
  let white = 0;
  let left = width;
  let right = -1;
  let top = height;
  let bottom = -1;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const k = y * width + x;
      const a = coverage[k]!;
      if (a >= 128) {
        if (x < left) left = x;
        if (x > right) right = x;
        if (y < top) top = y;
        if (y > bottom) bottom = y;
      }
      if (a === 0) {
        background += 1;
        if (rgb[k * 3] === 255 && rgb[k * 3 + 1] === 255 && rgb[k * 3 + 2] === 255) white += 1;
      }
    }
  }
  const whiteBackground = background === 0 ? 0 : white / background;
  const fill = right < 0 ? 0 : Math.max((right - left + 1) / width, (bottom - top + 1) / height);
  const problems: string[] = [];
  if (whiteBackground < 1) problems.push(`background is ${(whiteBackground * 100).toFixed(2)}% pure white, not 100%`);
  if (fill < MARKETPLACE_FILL.min || fill > MARKETPLACE_FILL.max) {
    problems.push(`product fills ${(fill * 100).toFixed(1)}% of the frame, expected about 85%`);
  }
  return { ok: problems.length === 0, whiteBackground, fill, problems };
}
