import { apiRoutes, type ApiRoute } from './api';
import type { HttpMethod } from './paths';

/**
 * Route lookup for the gateway: a known path with another method is a 405 (with the allowed methods for the
 * Allow header), an unknown path a 404 (SPEC §8 router generics).
 */
export type RouteMatch =
  | { kind: 'found'; route: ApiRoute; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allowedMethods: HttpMethod[] }
  | { kind: 'not_found' };

type Segment = { literal: string } | { param: string };

interface CompiledRoute {
  route: ApiRoute;
  segments: Segment[];
  /** Literal segments win over params at the same depth (`/download/bulk/:id` over `/download/:id/batch`). */
  specificity: number[];
}

function splitPath(path: string): string[] {
  return path.split('/').filter((segment) => segment.length > 0);
}

function compile(route: ApiRoute): CompiledRoute {
  const segments: Segment[] = splitPath(route.path).map((segment) =>
    segment.startsWith(':') ? { param: segment.slice(1) } : { literal: segment },
  );
  return { route, segments, specificity: segments.map((segment) => ('literal' in segment ? 1 : 0)) };
}

function compareSpecificity(a: CompiledRoute, b: CompiledRoute): number {
  for (let index = 0; index < a.specificity.length; index += 1) {
    const difference = (b.specificity[index] ?? 0) - (a.specificity[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

function matchSegments(compiled: CompiledRoute, parts: string[]): Record<string, string> | undefined {
  if (compiled.segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, segment] of compiled.segments.entries()) {
    const part = parts[index] ?? '';
    if ('literal' in segment) {
      if (segment.literal !== part) return undefined;
      continue;
    }
    try {
      params[segment.param] = decodeURIComponent(part);
    } catch {
      return undefined; // malformed percent-encoding cannot name anything we serve
    }
  }
  return params;
}

export interface Router {
  match(method: string, path: string): RouteMatch;
}

/** Builds a matcher over any route table (the gateway may add or drop dev-only routes). */
export function createRouter(routeTable: readonly ApiRoute[]): Router {
  const compiled = routeTable.map(compile).sort(compareSpecificity);
  return {
    match(method, path) {
      const pathOnly = path.split(/[?#]/, 1)[0] ?? '';
      const parts = splitPath(pathOnly);
      // HEAD is answered like GET by Express; accept it wherever GET is.
      const wanted = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
      const allowedMethods: HttpMethod[] = [];
      for (const candidate of compiled) {
        const params = matchSegments(candidate, parts);
        if (!params) continue;
        if (candidate.route.method === wanted) return { kind: 'found', route: candidate.route, params };
        if (!allowedMethods.includes(candidate.route.method)) allowedMethods.push(candidate.route.method);
      }
      return allowedMethods.length > 0 ? { kind: 'method_not_allowed', allowedMethods } : { kind: 'not_found' };
    },
  };
}

const defaultRouter = createRouter(apiRoutes);

/** Looks a request up in the API route table. */
export function matchRoute(method: string, path: string): RouteMatch {
  return defaultRouter.match(method, path);
}
