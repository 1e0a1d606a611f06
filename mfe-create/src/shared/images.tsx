// A plain tile in place of an image whose address cannot be used: one bad address neither breaks the screen nor
// leaves it waiting for an image that never loads.
export const UNAVAILABLE_IMAGE = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><rect width="4" height="4" fill="#e5e7eb"/></svg>',
)}`;

/** The address to load, or the plain tile when the API gave one the client refuses. */
export function loadableSrc(imageSrc: (url: string) => string, url: string | null | undefined): string {
  if (!url) return UNAVAILABLE_IMAGE;
  try {
    return imageSrc(url);
  } catch {
    return UNAVAILABLE_IMAGE;
  }
}

/** Any false entry in fixes_done means post-processing (upscale, watermark...) is still running. */
export function fixesRunning(image: { metadata?: { fixes_done?: boolean[] } }): boolean {
  return (image.metadata?.fixes_done ?? []).some((done) => !done);
}
