import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';

/**
 * The security headers of every web-origin answer (both web origins: embedded mode's web server and distributed
 * mode's shell and microfrontend hosts). The Content-Security-Policy allows scripts from the origin itself (the
 * shell, every microfrontend's remoteEntry and chunks under /mfe/, the tools' workers and WASM), the configured
 * analytics and pixel scripts and Google's sign-in, and inline script only with the response's nonce: the shell's
 * bootstrap in index.html is the one inline script that runs. The JSON-LD and the marketing page data are data
 * blocks (a non-JavaScript type), which the browser never runs, so no policy applies to them.
 */

/** What the pages served from this origin talk to, as the runtime config names it. */
export interface WebOriginSources {
  /** The API's URL (distributed mode). */
  apiBaseUrl?: string;
  /** Embedded mode names only the API's port: the web app calls the page's own host on it. */
  apiPort?: number;
  /** Google Identity Services loads when a client id is configured. */
  googleClientId?: string;
  /** The analytics and pixel scripts (kind → URL). */
  trackingScripts?: Record<string, string>;
}

const GOOGLE_SIGN_IN = 'https://accounts.google.com/gsi/';
/** Features no page of the platform uses; a script that gets in cannot ask for them either. */
const PERMISSIONS_POLICY = [
  'camera=()',
  'microphone=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'serial=()',
  'hid=()',
  'midi=()',
  'magnetometer=()',
  'gyroscope=()',
  'accelerometer=()',
  'display-capture=()',
  'browsing-topics=()',
].join(', ');
const HSTS = 'max-age=31536000; includeSubDomains';
/** A host name or an IPv6 literal, nothing that could end a CSP source or start another directive. */
const HOST_NAME = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)$/i;

/** The response's CSP nonce, or undefined when the security headers were not applied. */
export function cspNonceOf(res: Response): string | undefined {
  const nonce: unknown = res.locals.cspNonce;
  return typeof nonce === 'string' ? nonce : undefined;
}

/** Served over TLS here or at a proxy in front (which says so in X-Forwarded-Proto). */
function isHttps(req: IncomingMessage): boolean {
  const forwarded = req.headers['x-forwarded-proto'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim().toLowerCase();
  return first === 'https' || (req.socket as { encrypted?: boolean }).encrypted === true;
}

function originOf(url: string): string | undefined {
  // A `/path` script is the origin's own ('self').
  if (!/^https?:\/\//i.test(url)) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** The API origin the page will call; in embedded mode the request's own host on the API port. */
function apiOriginFor(sources: WebOriginSources, req: Request): string | undefined {
  if (sources.apiBaseUrl) return originOf(sources.apiBaseUrl);
  if (sources.apiPort === undefined || !HOST_NAME.test(req.hostname)) return undefined;
  return `${isHttps(req) ? 'https' : 'http'}://${req.hostname}:${sources.apiPort}`;
}

type DirectiveValue = string | ((req: IncomingMessage, res: ServerResponse) => string);

export function webOriginHeaders(sources: WebOriginSources = {}): RequestHandler {
  const trackingOrigins = [
    ...new Set(Object.values(sources.trackingScripts ?? {}).flatMap((url) => originOf(url) ?? [])),
  ];
  const google = sources.googleClientId ? [GOOGLE_SIGN_IN] : [];
  const nonce: DirectiveValue = (_req, res) => `'nonce-${cspNonceOf(res as Response) ?? ''}'`;
  const api: DirectiveValue = (req) => apiOriginFor(sources, req as Request) ?? "'self'";
  const headers = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // 'wasm-unsafe-eval': the tools compile onnxruntime's WebAssembly (it allows no JavaScript eval).
        scriptSrc: [
          "'self'",
          nonce,
          "'wasm-unsafe-eval'",
          ...google.map((base) => `${base}client`),
          ...trackingOrigins,
        ],
        scriptSrcAttr: ["'none'"],
        // React's style attributes and the inlined page CSS (the shell's tokens, the marketing page styles) are
        // styles only, and they cannot run script.
        styleSrc: ["'self'", "'unsafe-inline'", ...google.map((base) => `${base}style`)],
        imgSrc: ["'self'", 'data:', 'blob:', api, ...trackingOrigins],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", api, ...google, ...trackingOrigins],
        frameSrc: ["'self'", ...google],
        // The resizer's pica starts its workers from blob: URLs of its own code; only script already running on
        // the page can make one, so this opens no way in.
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'", api],
        frameAncestors: ["'none'"],
      },
    },
    // Set where they are needed: the tool pages are cross-origin isolated (COOP and COEP, setIsolationHeaders), and
    // Google's sign-in popup needs the opener elsewhere; the microfrontend hosts set their files' CORP.
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Only over https: a browser told so by a plain http answer would refuse the http origin afterwards.
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
  });
  return (req, res, next) => {
    res.locals.cspNonce = randomBytes(16).toString('base64');
    res.setHeader('Permissions-Policy', PERMISSIONS_POLICY);
    if (isHttps(req)) res.setHeader('Strict-Transport-Security', HSTS);
    headers(req, res, next);
  };
}
