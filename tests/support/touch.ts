import type { Locator, Page } from 'playwright-core';

/**
 * A one-finger horizontal swipe across the middle of `target`, by `distance` CSS pixels (negative = leftwards),
 * sent through Chromium's real touch input (DevTools Protocol), so the page sees the touchstart/touchmove/touchend
 * sequence a phone produces. The page's context needs `hasTouch`.
 */
export async function swipeHorizontally(page: Page, target: Locator, distance: number): Promise<void> {
  const box = await target.boundingBox();
  if (!box) throw new Error('the swipe target is not on screen');
  const y = box.y + box.height / 2;
  const startX = box.x + box.width / 2 - distance / 2;
  const session = await page.context().newCDPSession(page);
  try {
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number) =>
      session.send('Input.dispatchTouchEvent', {
        type,
        touchPoints: type === 'touchEnd' ? [] : [{ x, y }],
      });
    await touch('touchStart', startX);
    const steps = 5;
    for (let step = 1; step <= steps; step += 1) await touch('touchMove', startX + (distance * step) / steps);
    await touch('touchEnd', startX + distance);
  } finally {
    await session.detach();
  }
}
