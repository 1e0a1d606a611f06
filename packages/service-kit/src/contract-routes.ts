import type { Request, Response, Router } from 'express';
import type { z } from 'zod';
import { userIdSchema, validateRequest, type ApiRoute, type InternalRoute } from '@productgen/contracts';
import { AppError } from './errors';

/*
 * The one HTTP glue between an Express handler and a route declared in the contracts (public or internal):
 * validated input in (400 `{code, error}` naming every field), an answer checked by the route's response schema
 * out, and the gateway's verified user for routes behind the session check.
 */

export type ContractRoute = ApiRoute | InternalRoute;

type RequestPartName = 'body' | 'query' | 'params' | 'headers';

type ParsedPart<Route, Part extends RequestPartName> = Route extends { request: infer Request }
  ? Request extends Record<Part, infer Schema extends z.ZodType>
    ? z.output<Schema>
    : undefined
  : undefined;

/** The parsed (typed, stripped) parts a route declares; undeclared parts are left as Express delivered them. */
export interface ParsedRequest<Route extends ContractRoute> {
  body: ParsedPart<Route, 'body'>;
  query: ParsedPart<Route, 'query'>;
  params: ParsedPart<Route, 'params'>;
  headers: ParsedPart<Route, 'headers'>;
}

export type RouteAnswer<Route extends ContractRoute> = z.output<Route['response']>;

/** Validates every part the route declares at once; bad input is a 400 whose message names every field. */
export function parseRequest<Route extends ContractRoute>(route: Route, req: Request): ParsedRequest<Route> {
  const result = validateRequest(route, { body: req.body, query: req.query, params: req.params, headers: req.headers });
  if (!result.ok) throw AppError.badRequest(result.message, { issues: result.issues });
  return result.data as ParsedRequest<Route>;
}

/** Answers with the route's response schema, so nothing leaves that the contract does not describe. */
export function reply<Route extends ContractRoute>(res: Response, route: Route, value: RouteAnswer<Route>): void {
  res.json(route.response.parse(value));
}

/**
 * Registers a handler at the route's declared method and path. The input is parsed when the handler first reads
 * it, so a handler that checks the caller first answers 401 before 400, as a user expects.
 */
export function serveRoute<Route extends ContractRoute>(
  app: Router,
  route: Route,
  handler: (
    input: ParsedRequest<Route>,
    req: Request,
    res: Response,
  ) => Promise<RouteAnswer<Route>> | RouteAnswer<Route>,
): void {
  const method = route.method.toLowerCase() as Lowercase<ContractRoute['method']>;
  app[method](route.path, async (req: Request, res: Response) => {
    let parsed: ParsedRequest<Route> | undefined;
    const input = lazyInput(() => (parsed ??= parseRequest(route, req)));
    reply(res, route, await handler(input, req, res));
  });
}

function lazyInput<Route extends ContractRoute>(parse: () => ParsedRequest<Route>): ParsedRequest<Route> {
  return {
    get body() {
      return parse().body;
    },
    get query() {
      return parse().query;
    },
    get params() {
      return parse().params;
    },
    get headers() {
      return parse().headers;
    },
  };
}

/** Header the gateway sets to the session's verified user; it drops any client-sent one. */
export const USER_ID_HEADER = 'x-user-id';

/** The verified user the gateway forwards; without it the caller did not come through the gateway's check. */
export function requireGatewayUser(req: Request): string {
  const parsed = userIdSchema.safeParse(req.get(USER_ID_HEADER));
  if (!parsed.success) throw AppError.unauthorized();
  return parsed.data;
}
