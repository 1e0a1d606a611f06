import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { hostForLookup, isAddressAllowed, isHttpUrl, type AddressPolicy } from '../domain/url-safety';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a host name resolves to (IP literals resolve to themselves). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface FetchedPage {
  /** Where the page was finally read from, after redirects. */
  url: string;
  html: string;
}

/** Reads a shop's home page. Injectable so tests and other deployments can substitute their own. */
export type SiteFetcher = (url: string) => Promise<FetchedPage>;

export interface SafeSiteFetcherOptions {
  timeoutMs: number;
  maxBytes: number;
  policy: AddressPolicy;
  maxRedirects?: number;
  resolve?: HostResolver;
}

/** The address (or a redirect to one) is not public: nothing was sent to it. */
export class SiteFetchRefusedError extends Error {
  override name = 'SiteFetchRefusedError';
}

/** The site was allowed but could not be read (timeout, error status, not HTML). */
export class SiteFetchFailedError extends Error {
  override name = 'SiteFetchFailedError';
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const HTML_TYPES = ['text/html', 'application/xhtml+xml'];
export const DEFAULT_MAX_REDIRECTS = 3;

const resolveAll: HostResolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** A lookup that answers with the address we already vetted, so a second DNS answer cannot redirect the socket. */
function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}

function readCapped(response: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      if (size >= maxBytes) return;
      chunks.push(chunk);
      size += chunk.length;
      // The head of a page is what tells what a shop is; stop reading once the cap is reached.
      if (size >= maxBytes) {
        resolve(Buffer.concat(chunks).subarray(0, maxBytes));
        response.destroy();
      }
    });
    response.on('end', () => resolve(Buffer.concat(chunks)));
    response.on('error', (error) => (size >= maxBytes ? undefined : reject(error)));
    response.on('close', () => resolve(Buffer.concat(chunks).subarray(0, maxBytes)));
  });
}

/**
 * Fetches a website's home page without becoming a way into private networks: every hop's host is resolved and
 * all its addresses must be public (see isAddressAllowed), the connection goes to the vetted address, redirects
 * are followed by hand (at most 3) with the same checks, and time and size are capped.
 */
export function createSafeSiteFetcher(options: SafeSiteFetcherOptions): SiteFetcher {
  const resolve = options.resolve ?? resolveAll;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;

  async function vet(url: URL): Promise<ResolvedAddress> {
    if (!isHttpUrl(url))
      throw new SiteFetchRefusedError(`only http and https addresses are fetched, not ${url.protocol}`);
    let addresses: ResolvedAddress[];
    try {
      addresses = await resolve(hostForLookup(url));
    } catch (error) {
      throw new SiteFetchFailedError(`cannot resolve ${url.hostname}`, { cause: error });
    }
    const first = addresses[0];
    if (!first) throw new SiteFetchFailedError(`${url.hostname} has no address`);
    const refused = addresses.find((entry) => !isAddressAllowed(entry.address, options.policy));
    if (refused)
      throw new SiteFetchRefusedError(`${url.hostname} resolves to a non-public address (${refused.address})`);
    return first;
  }

  function get(url: URL, target: ResolvedAddress, signal: AbortSignal): Promise<IncomingMessage> {
    const client = url.protocol === 'https:' ? https : http;
    return new Promise((resolvePromise, reject) => {
      const request = client.request(url, {
        method: 'GET',
        // A fresh connection per hop: a pooled socket could lead to an address vetted for another request.
        agent: false,
        lookup: pinnedLookup(target),
        signal,
        headers: {
          accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
          'accept-encoding': 'identity',
          'user-agent': 'ProductGen-ShopReader/1.0',
        },
      });
      request.once('response', resolvePromise);
      request.once('error', (error) =>
        reject(
          signal.aborted
            ? new SiteFetchFailedError(`no answer within ${options.timeoutMs} ms`, { cause: error })
            : new SiteFetchFailedError(`request to ${url.host} failed: ${error.message}`, { cause: error }),
        ),
      );
      request.end();
    });
  }

  return async (address) => {
    let url: URL;
    try {
      url = new URL(address);
    } catch (error) {
      throw new SiteFetchRefusedError('not a valid address', { cause: error });
    }
    const signal = AbortSignal.timeout(options.timeoutMs);
    for (let redirects = 0; ; redirects += 1) {
      const target = await vet(url);
      const response = await get(url, target, signal);
      const status = response.statusCode ?? 0;
      if (REDIRECT_STATUSES.has(status)) {
        response.destroy();
        const location = response.headers.location;
        if (!location) throw new SiteFetchFailedError(`redirect ${status} without a location`);
        if (redirects >= maxRedirects) throw new SiteFetchRefusedError(`more than ${maxRedirects} redirects`);
        url = new URL(location, url);
        continue;
      }
      if (status < 200 || status >= 300) {
        response.destroy();
        throw new SiteFetchFailedError(`${url.host} answered ${status}`);
      }
      const contentType = (response.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      if (contentType !== '' && !HTML_TYPES.includes(contentType)) {
        response.destroy();
        throw new SiteFetchFailedError(`${url.host} answered ${contentType}, not a web page`);
      }
      try {
        const body = await readCapped(response, options.maxBytes);
        return { url: url.toString(), html: body.toString('utf8') };
      } catch (error) {
        throw new SiteFetchFailedError(`reading ${url.host} failed`, { cause: error });
      }
    }
  };
}
