/**
 * Which browser origins may call the API with credentials. The configured web origins always; and the web app at
 * the very host the API was addressed by, on a configured web origin's scheme and port. A user who typed
 * http://127.0.0.1:3000 or http://studio.lan:3000 reaches the API at that same host (the web app derives it), so
 * the origin is allowed without listing every name the machine answers to. An origin on another host than the one
 * the request was sent to is never allowed unless configured, so no arbitrary origin is echoed.
 */
export function isAllowedWebOrigin(
  origin: string | undefined,
  requestHost: string | undefined,
  webOrigins: readonly string[],
): boolean {
  if (!origin) return false;
  if (webOrigins.includes(origin)) return true;
  if (!requestHost) return false;
  const caller = parseOrigin(origin);
  const addressed = parseOrigin(`http://${requestHost}`);
  if (!caller || !addressed || caller.origin !== origin || caller.hostname !== addressed.hostname) return false;
  return webOrigins.some((configured) => {
    const web = parseOrigin(configured);
    return web !== undefined && web.protocol === caller.protocol && web.port === caller.port;
  });
}

function parseOrigin(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * The browser's "potentially trustworthy origin" (Secure Contexts §3.1) for a request's scheme and host name:
 * https, or loopback by name or address.
 */
export function isPotentiallyTrustworthy(protocol: string, hostname: string): boolean {
  if (protocol === 'https') return true;
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}
