import { minutesText, type QuotaLimit } from '@productgen/service-kit';

/** The window's length in whole minutes. */
const minutes = (ms: number) => Math.round(ms / 60_000);

/** The 429 text of the photo-analysis quota (POST /image-gen/category, POST /imageGen). */
export function analysisQuotaMessage(limit: QuotaLimit, waitMinutes: number): string {
  return `You have uploaded ${limit.max} photos in the last ${minutes(limit.windowMs)} minutes, the most we can analyse for one account. Please try again in ${minutesText(waitMinutes)}.`;
}

/** The 429 text of the cut-out correction quota (PUT /image-gen/cutout/:uuid). */
export function cutoutSaveQuotaMessage(limit: QuotaLimit, waitMinutes: number): string {
  return `You have saved ${limit.max} cut-out corrections in the last ${minutes(limit.windowMs)} minutes, the most we allow. Please try again in ${minutesText(waitMinutes)}.`;
}
