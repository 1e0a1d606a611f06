import type { z } from 'zod';
import type { HttpMethod } from '../paths';

/*
 * The shape of an internal route: a call one service makes to another on the service network. Like the public
 * route table, each is declared once; the owner registers its handler from the declaration (service-kit
 * `serveRoute`) and callers get a typed client from it (service-kit `createInternalApiClient`), so path, method and
 * schemas cannot drift apart. The gateway never routes /internal/* from the outside.
 */

export type InternalRouteOwner = 'auth' | 'billing' | 'generation' | 'bulk';

export interface InternalRouteRequest {
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** Header names in lower case, as Node delivers them. */
  headers?: z.ZodObject;
  body?: z.ZodType;
}

export interface InternalRoute {
  /** Unique, camelCase; the typed client's method name. */
  id: string;
  owner: InternalRouteOwner;
  method: HttpMethod;
  /** Express-style, always under /internal/, e.g. `/internal/users/:id`. */
  path: string;
  summary: string;
  request?: InternalRouteRequest;
  response: z.ZodType;
  /** Error statuses a caller must expect (each answered as `{code, error}`). */
  errorStatuses?: readonly number[];
}

/** Keeps each route's literal types so the client and handler types follow its schemas. */
export function defineInternalRoute<const Route extends InternalRoute>(route: Route): Route {
  return route;
}

type DeclaredPart<Route, Part extends keyof InternalRouteRequest> = Route extends { request: infer Request }
  ? Request extends Record<Part, infer Schema extends z.ZodType>
    ? Schema
    : never
  : never;

type InputPart<Route, Part extends keyof InternalRouteRequest> = [DeclaredPart<Route, Part>] extends [never]
  ? unknown
  : { [Key in Part]: z.input<DeclaredPart<Route, Part>> };

/** What a caller passes: exactly the parts the route declares (`{params}`, `{body}`, ...), in input types. */
export type InternalCallInput<Route extends InternalRoute> = InputPart<Route, 'params'> &
  InputPart<Route, 'query'> &
  InputPart<Route, 'headers'> &
  InputPart<Route, 'body'>;

/** What the owner answers (parsed output of the response schema). */
export type InternalCallResult<Route extends InternalRoute> = z.output<Route['response']>;
