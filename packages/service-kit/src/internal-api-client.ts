import { fillPath, type InternalCallInput, type InternalCallResult, type InternalRoute } from '@productgen/contracts';
import { createInternalHttpClient, type InternalHttpClientOptions, type QueryValue } from './http-client';

/** One typed method per declared route: `billing.reserveCredits({body})`, `auth.getUser({params: {id}})`. */
export type InternalApiClient<Routes extends Record<string, InternalRoute>> = {
  [Id in keyof Routes]: (input: InternalCallInput<Routes[Id]>) => Promise<InternalCallResult<Routes[Id]>>;
};

interface CallParts {
  params?: Record<string, unknown>;
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  body?: unknown;
}

/**
 * The typed client of another service's internal routes, built from their declarations in the contracts and sent
 * through the internal HTTP client (trace context, request id, time limit, `{code, error}` answers as AppError, the
 * answer checked against the route's response schema).
 */
export function createInternalApiClient<Routes extends Record<string, InternalRoute>>(
  routes: Routes,
  options: InternalHttpClientOptions,
): InternalApiClient<Routes> {
  const http = createInternalHttpClient(options);
  const client: Record<string, (input: CallParts) => Promise<unknown>> = {};
  for (const [id, route] of Object.entries(routes)) {
    client[id] = (input: CallParts = {}) =>
      http.request(route.method, fillPath(route.path, input.params), {
        body: input.body,
        query: input.query,
        headers: input.headers,
        schema: route.response,
      });
  }
  return client as InternalApiClient<Routes>;
}
