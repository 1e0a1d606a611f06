import { useRef, type TouchEvent } from 'react';

/** SPEC §9: a horizontal swipe of at least 50 px on the large image changes the variation. */
export const SWIPE_THRESHOLD_PX = 50;

export type SwipeDirection = 'next' | 'previous';

/** Leftward finger movement shows the next variation, rightward the previous one. */
export function swipeDirection(
  startX: number,
  endX: number,
  threshold: number = SWIPE_THRESHOLD_PX,
): SwipeDirection | null {
  const delta = endX - startX;
  if (Math.abs(delta) < threshold) return null;
  return delta < 0 ? 'next' : 'previous';
}

/** The index a swipe leads to, staying within the list (no wrap-around). */
export function swipeTarget(index: number, count: number, direction: SwipeDirection | null): number {
  if (direction === null || count === 0) return index;
  const target = direction === 'next' ? index + 1 : index - 1;
  return Math.min(count - 1, Math.max(0, target));
}

/**
 * Touch handlers for an element that swipes between items: a horizontal swipe past the threshold calls `onSwipe`
 * with its direction; shorter movements (taps, scrolls) do nothing.
 */
export function useSwipe(onSwipe: (direction: SwipeDirection) => void) {
  const startX = useRef<number | null>(null);
  return {
    onTouchStart: (event: TouchEvent) => {
      startX.current = event.touches[0]?.clientX ?? null;
    },
    onTouchEnd: (event: TouchEvent) => {
      const endX = event.changedTouches[0]?.clientX;
      const from = startX.current;
      startX.current = null;
      if (from === null || endX === undefined) return;
      const direction = swipeDirection(from, endX);
      if (direction) onSwipe(direction);
    },
  };
}
