import type { CreditRecord } from '@productgen/platform-client';

/** Shown in place of a value the entry does not have (purchases and the signup bonus have no generation). */
export const NO_VALUE = '—';

/** SPEC §2: the credit log shows only the last 4 characters of the generation id. */
export function shortGenerationId(generationId: string | null | undefined): string {
  return generationId ? generationId.slice(-4) : NO_VALUE;
}

/** The amount with its direction: "+50" for a purchase, "-1" for an image. */
export function signedAmount(record: Pick<CreditRecord, 'amount' | 'transaction_type'>): string {
  return `${record.transaction_type === 'decrease' ? '-' : '+'}${record.amount}`;
}

const logDateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** "Jun 3, 2025, 10:15 AM" in the browser's time zone; an unparsable value is shown as sent. */
export function formatLogDate(isoDate: string): string {
  const date = new Date(isoDate);
  return Number.isNaN(date.getTime()) ? isoDate : logDateFormat.format(date);
}
