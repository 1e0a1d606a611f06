import type { PlatformClient } from '@productgen/platform-client';

const PROBE_ID = 'probe';
const PROBE_SUFFIX = `/download/${PROBE_ID}/batch`;

/**
 * Generated images may be given as paths on the API origin. The platform client has no asset-address helper,
 * so the API base is read from an address it does build (a download link) and relative paths are resolved on it.
 */
export function makeAssetResolver(client: Pick<PlatformClient, 'downloadUrl'>): (url: string) => string {
  const probe = client.downloadUrl('batch', PROBE_ID);
  const apiBase = probe.endsWith(PROBE_SUFFIX) ? probe.slice(0, -PROBE_SUFFIX.length) : '';
  return (url: string) => {
    if (/^(https?:|data:|blob:)/i.test(url) || !apiBase) return url;
    return url.startsWith('/') ? `${apiBase}${url}` : `${apiBase}/${url}`;
  };
}
