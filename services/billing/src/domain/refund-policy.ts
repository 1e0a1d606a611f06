/** Abuse limit of user refund requests: at most `maxRefunds` granted per user within `windowMs`. */
export interface RefundLimit {
  maxRefunds: number;
  windowMs: number;
}

export function refundLimitFromHours(maxRefunds: number, windowHours: number): RefundLimit {
  return { maxRefunds, windowMs: windowHours * 60 * 60 * 1000 };
}

export function refundWindowStart(limit: RefundLimit, now: Date): Date {
  return new Date(now.getTime() - limit.windowMs);
}

/**
 * The limit is held by `maxRefunds` slots per user, each holding the time of the refund granted in it. A refund
 * takes a slot whose grant has left the window, with one conditional atomic update; so at any moment at most
 * `maxRefunds` grants lie inside the window, however many requests arrive at once.
 */
export function refundSlotIds(userId: string, limit: RefundLimit): string[] {
  return Array.from({ length: limit.maxRefunds }, (_unused, slot) => `${userId}:${slot}`);
}

export function refundLimitMessage(limit: RefundLimit): string {
  const hours = Math.round(limit.windowMs / 3_600_000);
  return `Refund limit reached: at most ${limit.maxRefunds} refunds per ${hours} hours. Please try again later or contact support.`;
}

export const REFUND_NOT_FOUND_MESSAGE = 'No charged image of yours matches this generation and image index.';
export const ALREADY_REFUNDED_MESSAGE = 'This image was already refunded.';
