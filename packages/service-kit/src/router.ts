import express, { type RequestHandler, type Router, type RouterOptions } from 'express';
import { AppError } from './errors';

/** Allowed methods of every route whose path matched the request but whose methods did not. */
const allowedMethodsKey = Symbol('productgen.allowedMethods');

type RequestWithAllowed = express.Request & { [allowedMethodsKey]?: Set<string> };

/** The minimal shape of an Express 5 (router@2) Route we rely on: its handler table. */
interface TrackedRoute {
  methods: Record<string, boolean | undefined>;
  all(handler: RequestHandler): unknown;
}

function routeMethods(route: TrackedRoute): string[] {
  const methods = Object.keys(route.methods)
    .filter((method) => method !== '_all' && route.methods[method])
    .map((method) => method.toUpperCase());
  if (methods.includes('GET') && !methods.includes('HEAD')) methods.push('HEAD');
  return methods;
}

/**
 * Makes every route created on `router` (router.get/post/..., router.route(path)) remember, for a request whose
 * path matches but whose method does not, which methods the path does accept. The final `routeNotMatched` handler
 * turns that into 405 + Allow instead of 404. Recording (not answering) keeps it correct when one path's methods
 * are spread over several routers.
 */
export function trackAllowedMethods<R extends Router>(router: R): R {
  const createRoute = router.route.bind(router);
  router.route = ((path: Parameters<Router['route']>[0]) => {
    const route = createRoute(path);
    const tracked = route as unknown as TrackedRoute;
    // Registered first, so it runs before the method handlers added next; it reads the live method table.
    tracked.all((req, _res, next) => {
      const methods = routeMethods(tracked);
      if (!methods.includes(req.method)) {
        const allowed = ((req as RequestWithAllowed)[allowedMethodsKey] ??= new Set());
        for (const method of methods) allowed.add(method);
      }
      next();
    });
    return route;
  }) as Router['route'];
  return router;
}

/** An Express router whose routes answer 405 Method Not Allowed (with Allow) for a known path and a wrong method. */
export function createRouter(options?: RouterOptions): Router {
  return trackAllowedMethods(express.Router(options));
}

/** The tail handler: 405 with Allow when the path exists under another method, OPTIONS → 204 with Allow, else 404. */
export const routeNotMatched: RequestHandler = (req, res, next) => {
  const allowed = (req as RequestWithAllowed)[allowedMethodsKey];
  if (allowed && allowed.size > 0) {
    const allowHeader = [...allowed].sort().join(', ');
    res.setHeader('Allow', allowHeader);
    if (req.method === 'OPTIONS') {
      res.status(204).end();
      return;
    }
    next(AppError.methodNotAllowed());
    return;
  }
  next(AppError.notFound());
};
