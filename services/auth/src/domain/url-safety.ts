import ipaddr from 'ipaddr.js';

export interface AddressPolicy {
  /** Tests only: lets loopback addresses through (every other non-public range stays refused). */
  allowLoopback: boolean;
}

export const REFUSE_NON_PUBLIC: AddressPolicy = { allowLoopback: false };

/**
 * Whether the website fetcher may connect to `address`. Only ordinary public unicast addresses pass: loopback,
 * private (10/8, 172.16/12, 192.168/16, fc00::/7), link-local (169.254/16, fe80::/10), unspecified, multicast,
 * carrier-grade NAT, broadcast, reserved and tunnelling ranges are refused. IPv4-mapped IPv6 (::ffff:127.0.0.1)
 * is judged as the IPv4 address it carries.
 */
export function isAddressAllowed(address: string, policy: AddressPolicy = REFUSE_NON_PUBLIC): boolean {
  // A zone id (fe80::1%eth0) only ever appears on link-local addresses.
  if (address.includes('%')) return false;
  if (!ipaddr.isValid(address)) return false;
  // process() unwraps IPv4-mapped IPv6 so ::ffff:10.0.0.1 is judged as 10.0.0.1.
  const range = ipaddr.process(address).range();
  if (range === 'unicast') return true;
  return policy.allowLoopback && range === 'loopback';
}

/** The URL's host as dns.lookup wants it: IPv6 literals lose their brackets. */
export function hostForLookup(url: URL): string {
  return url.hostname.startsWith('[') && url.hostname.endsWith(']') ? url.hostname.slice(1, -1) : url.hostname;
}

export function isHttpUrl(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}
