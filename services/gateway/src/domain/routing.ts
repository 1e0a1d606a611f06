import { apiRoutes, type ApiRoute, type HttpMethod, type RouteOwner } from '@productgen/contracts';

/** Services the gateway forwards to; 'gateway' routes are answered in place. */
export type UpstreamOwner = Exclude<RouteOwner, 'gateway'>;

export interface UpstreamUrls {
  auth: string;
  billing: string;
  generation: string;
  bulk: string;
}

/**
 * The routes this gateway serves: without the dev-only routes (production, or DEV_IDENTITY_PROVIDER unset) the
 * devOnly ones are refused as if they did not exist.
 */
export function servedRoutes(withoutDevRoutes: boolean, table: readonly ApiRoute[] = apiRoutes): ApiRoute[] {
  return table.filter((route) => !withoutDevRoutes || !route.devOnly);
}

/** The Allow header of a 405: HEAD goes wherever GET does, as Express answers it. */
export function allowHeader(methods: readonly HttpMethod[]): string {
  const allowed = new Set<string>(methods);
  if (allowed.has('GET')) allowed.add('HEAD');
  return [...allowed].sort().join(', ');
}

export interface BodyLimits {
  json: number;
  image: number;
  upload: number;
}

/**
 * How the gateway handles a route's request body:
 * - buffer: read it (within `limit`), parse it as JSON when `parseJson`, validate, then forward the same bytes;
 * - stream: never read it; forward the bytes as they arrive (multipart uploads, webhooks whose signature covers
 *   the exact bytes). Only a declared Content-Length above `limit` is refused up front; the owner enforces its
 *   own cap while reading.
 */
export type BodyPolicy = { kind: 'buffer'; limit: number; parseJson: boolean } | { kind: 'stream'; limit: number };

/** Routes whose JSON body carries a base64 photo (contracts' base64ImageSchema). */
const imageCarryingRouteIds = new Set(['analyzeImage', 'imageGen']);

export function bodyPolicy(route: ApiRoute, bodyLimits: BodyLimits): BodyPolicy {
  const bodyType = route.request?.bodyType ?? 'json';
  if (bodyType === 'multipart') return { kind: 'stream', limit: bodyLimits.upload };
  if (bodyType === 'raw') return { kind: 'stream', limit: bodyLimits.json };
  const limit = imageCarryingRouteIds.has(route.id) ? bodyLimits.image : bodyLimits.json;
  return { kind: 'buffer', limit, parseJson: route.request?.body !== undefined };
}

const validationViews = new WeakMap<ApiRoute, ApiRoute>();

/**
 * The route as the gateway validates it: a streamed body is the owner's to read, so only the address, query
 * and headers are checked here.
 */
export function validationView(route: ApiRoute): ApiRoute {
  const bodyType = route.request?.bodyType;
  if (!route.request?.body || (bodyType !== 'multipart' && bodyType !== 'raw')) return route;
  let view = validationViews.get(route);
  if (!view) {
    const { body: _streamedBody, ...request } = route.request;
    view = { ...route, request };
    validationViews.set(route, view);
  }
  return view;
}

/** Human-readable size for error messages: "1 MiB", "16.1 MiB", "512 KiB". */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = Number.isInteger(value) ? String(value) : value.toFixed(1).replace(/\.0$/, '');
  return `${rounded} ${units[unit]}`;
}

export function payloadTooLargeMessage(limit: number): string {
  return `The request body is too large: at most ${formatBytes(limit)} is accepted here.`;
}
