import { SpanKind } from '@opentelemetry/api';
import type { z } from 'zod';
import { AppError, isErrorBody } from './errors';
import { USER_ID_HEADER } from './contract-routes';
import { currentRequestId } from './request-id';
import { SERVICE_TOKEN_HEADER, type ServiceIdentity } from './service-identity';
import { injectTraceHeaders, withSpan } from './telemetry';

/**
 * fetch with the active trace context (traceparent/tracestate) and the current request id (X-Request-Id) added,
 * so the called service continues the same trace and logs under the same request id.
 */
export function fetchWithTrace(
  url: string | URL,
  init: RequestInit = {},
  fetchImpl: (input: string | URL, init?: RequestInit) => Promise<Response> = fetch,
): Promise<Response> {
  const headers = new Headers(init.headers);
  const traceHeaders = injectTraceHeaders<Record<string, string>>({});
  for (const [name, value] of Object.entries(traceHeaders)) headers.set(name, value);
  const requestId = currentRequestId();
  if (requestId && !headers.has('x-request-id')) headers.set('x-request-id', requestId);
  return fetchImpl(url, { ...init, headers });
}

export type QueryValue = string | number | boolean | undefined;

export interface InternalRequestOptions<T> {
  body?: unknown;
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  /** Validates (and types) the answer; an answer that does not match is a 502 (the callee broke its contract). */
  schema?: z.ZodType<T>;
  timeoutMs?: number;
}

export interface InternalHttpClientOptions {
  baseUrl: string;
  /** The called service's name, for spans and error details. */
  target?: string;
  /** Per-request time limit; exceeding it is a 504. */
  timeoutMs?: number;
  /** Sent with every request. */
  headers?: Record<string, string>;
  /**
   * This process's identity: every request carries a fresh X-Service-Token, naming the user of an X-User-Id header
   * when there is one (the callee reads the user from the token only).
   */
  identity?: ServiceIdentity;
  /** Defaults to the global fetch. */
  fetchImpl?: (input: string | URL, init?: RequestInit) => Promise<Response>;
}

type RequestFn = <T = unknown>(path: string, options?: InternalRequestOptions<T>) => Promise<T>;

export interface InternalHttpClient {
  request<T = unknown>(method: string, path: string, options?: InternalRequestOptions<T>): Promise<T>;
  get: RequestFn;
  post: RequestFn;
  put: RequestFn;
  patch: RequestFn;
  delete: RequestFn;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  if (!(response.headers.get('content-type') ?? '').includes('json')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** fetch rejects with a DOMException named TimeoutError (not always `instanceof Error` across realms). */
function isTimeout(error: unknown): boolean {
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  return name === 'TimeoutError' || name === 'AbortError';
}

/**
 * The client services use to call each other. An `{code, error}` answer comes back as the same AppError, so a
 * callee's 404 or 409 can be passed on unchanged; an unreachable callee is a 503, a slow one a 504.
 */
export function createInternalHttpClient(options: InternalHttpClientOptions): InternalHttpClient {
  const base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
  const target = options.target ?? base.host;
  const defaultTimeoutMs = options.timeoutMs ?? 10_000;

  async function request<T>(method: string, path: string, requestOptions: InternalRequestOptions<T> = {}): Promise<T> {
    const url = new URL(path.replace(/^\/+/, ''), base);
    for (const [name, value] of Object.entries(requestOptions.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...options.headers,
      ...requestOptions.headers,
    };
    if (options.identity) {
      headers[SERVICE_TOKEN_HEADER] = await options.identity.sign(headers[USER_ID_HEADER]);
    }
    let body: string | undefined;
    if (requestOptions.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(requestOptions.body);
    }
    const timeoutMs = requestOptions.timeoutMs ?? defaultTimeoutMs;
    const upper = method.toUpperCase();

    return withSpan(
      `${upper} ${target}`,
      { 'http.request.method': upper, 'url.full': url.toString(), 'peer.service': target },
      async (span) => {
        let response: Response;
        let answer: unknown;
        try {
          response = await fetchWithTrace(
            url,
            { method: upper, headers, body, signal: AbortSignal.timeout(timeoutMs) },
            options.fetchImpl,
          );
          answer = await readBody(response);
        } catch (error) {
          if (isTimeout(error)) {
            throw AppError.gatewayTimeout(undefined, { target, url: url.toString(), timeoutMs });
          }
          throw AppError.serviceUnavailable(undefined, { target, url: url.toString(), cause: String(error) });
        }
        span.setAttribute('http.response.status_code', response.status);
        if (!response.ok) {
          if (isErrorBody(answer) && response.status >= 400) {
            throw new AppError(response.status, answer.error, { target, upstream: answer });
          }
          throw AppError.badGateway(undefined, { target, status: response.status });
        }
        if (!requestOptions.schema) return answer as T;
        const parsed = requestOptions.schema.safeParse(answer);
        if (!parsed.success) {
          throw AppError.badGateway(undefined, {
            target,
            reason: 'answer did not match schema',
            issues: parsed.error.issues,
          });
        }
        return parsed.data;
      },
      { kind: SpanKind.CLIENT },
    );
  }

  const bind =
    (method: string): RequestFn =>
    (path, requestOptions) =>
      request(method, path, requestOptions);
  return {
    request,
    get: bind('GET'),
    post: bind('POST'),
    put: bind('PUT'),
    patch: bind('PATCH'),
    delete: bind('DELETE'),
  };
}
