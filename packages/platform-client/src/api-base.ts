/**
 * Where the API is, as the runtime config says: an absolute `apiBaseUrl` when the operator configured one, else
 * the page's own host with the API port. Deriving it from the page keeps web and API on one host (so on one site)
 * whatever the user typed — localhost, 127.0.0.1, a LAN name or a domain — so the host-only `session_key` cookie
 * reaches the download links and the gateway's same-site resource policy lets the images load.
 */
export interface ApiLocation {
  apiBaseUrl?: string;
  apiPort?: number;
}

/** The parts of `window.location` the derivation reads. */
export interface PageLocation {
  protocol: string;
  hostname: string;
}

export function resolveApiBaseUrl(location: ApiLocation, page: PageLocation): string {
  if (location.apiBaseUrl) return location.apiBaseUrl.replace(/\/+$/, '');
  const port = location.apiPort;
  if (port === undefined || !Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new TypeError('Either apiBaseUrl or apiPort (1-65535) must be configured');
  }
  // `hostname` keeps the brackets of an IPv6 literal ([::1]), so it can be put back in a URL as it is.
  return `${page.protocol}//${page.hostname}:${port}`;
}
