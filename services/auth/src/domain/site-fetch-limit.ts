import { minutesText, type QuotaLimit } from '@productgen/service-kit';

/** The 429 text of a settings save whose website address would be read once too often. */
export function siteFetchLimitMessage(limit: QuotaLimit, waitMinutes: number): string {
  const minutes = Math.round(limit.windowMs / 60_000);
  return `You have saved your website address ${limit.max} times in the last ${minutes} minutes, the most we allow. Please try again in ${minutesText(waitMinutes)}.`;
}
