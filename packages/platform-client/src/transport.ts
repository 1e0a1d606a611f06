import { fillPath, routePaths, type PathParams, type RoutePathId } from '@productgen/contracts/paths';
import type { UploadImpl } from './browser-env';
import { ApiError, UNAUTHORIZED } from './errors';
import type { PlatformEvents } from './events';
import type { SessionHint } from './session-key';
import type { Answer } from './types';

export type QueryValue = string | number | undefined;

export interface RequestOptions<Id extends RoutePathId = RoutePathId> {
  /** Values of the route's `:params`, e.g. `{ generation_uuid }`. */
  params?: PathParams<(typeof routePaths)[Id]['path']>;
  /** A plain value is sent as JSON; FormData is sent as multipart with the browser's boundary. */
  body?: unknown;
  query?: Record<string, QueryValue>;
  /** Emit auth-fetched once the response arrives (every call but the current-user check). */
  emitFetched?: boolean;
  /** Message for a non-OK answer that carries no error field of its own. */
  failureMessage?: string;
  /** Reports the share of a FormData body sent so far (0 to 1); the request then goes through the upload channel. */
  onUploadProgress?: (fraction: number) => void;
}

export interface RawResponse {
  status: number;
  ok: boolean;
  body: unknown;
}

export class Transport {
  private readonly baseUrl: string;

  constructor(
    apiBaseUrl: string,
    private readonly hint: SessionHint,
    private readonly events: PlatformEvents,
    private readonly fetchImpl: typeof fetch,
    private readonly uploadImpl: UploadImpl,
  ) {
    let parsed: URL;
    try {
      parsed = new URL(apiBaseUrl);
    } catch {
      throw new TypeError(`apiBaseUrl must be an absolute http(s) URL, got ${JSON.stringify(apiBaseUrl)}`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new TypeError(`apiBaseUrl must use http or https, got ${JSON.stringify(apiBaseUrl)}`);
    }
    this.baseUrl = apiBaseUrl.replace(/\/+$/, '');
  }

  url(path: string, query?: Record<string, QueryValue>): string {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) search.set(name, String(value));
    }
    const queryString = search.toString();
    return `${this.baseUrl}${path}${queryString ? `?${queryString}` : ''}`;
  }

  /** The address of a route of the contracts' table, its `:params` filled in. */
  routeUrl<Id extends RoutePathId>(id: Id, params?: RequestOptions<Id>['params']): string {
    return this.url(filledPath(id, params));
  }

  /** Sends one request of the route `id` and parses the answer; applies none of the error rules. */
  async send<Id extends RoutePathId>(id: Id, options: RequestOptions<Id> = {}): Promise<RawResponse> {
    const { body, query, params, onUploadProgress } = options;
    const url = this.url(filledPath(id, params), query);
    const { method } = routePaths[id];
    const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
    const headers: Record<string, string> = {};
    if (!isForm) headers['Content-Type'] = 'application/json';

    if (onUploadProgress && isForm && method === 'POST') {
      const answer = await this.uploadImpl({
        url,
        method,
        headers,
        body,
        onProgress: (loaded, total) => onUploadProgress(total > 0 ? Math.min(1, loaded / total) : 0),
      });
      return { status: answer.status, ok: answer.status >= 200 && answer.status < 300, body: parseBody(answer.text) };
    }

    // The session is the API's HttpOnly cookie: sent with every call (the API is another origin of the same site).
    const response = await this.fetchImpl(url, {
      method,
      headers,
      credentials: 'include',
      body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
    });
    return { status: response.status, ok: response.ok, body: parseBody(await response.text()) };
  }

  /** The usual call: 401 ends the session, error fields and non-OK answers are thrown, auth-fetched follows. */
  async call<Id extends RoutePathId>(id: Id, options: RequestOptions<Id> = {}): Promise<Answer<Id>> {
    const raw = await this.send(id, options);
    try {
      if (raw.status === 401) {
        this.endSession();
        throw new ApiError(UNAUTHORIZED.code, UNAUTHORIZED.error);
      }
      return interpretResponse<Answer<Id>>(raw, options.failureMessage);
    } finally {
      if (options.emitFetched !== false) this.events.emit('auth-fetched');
    }
  }

  endSession(): void {
    this.hint.clear();
    this.events.emit('auth-refresh');
  }
}

function filledPath<Id extends RoutePathId>(id: Id, params: RequestOptions<Id>['params']): string {
  // The callers' params were checked against this route's path; inside the generic it is just a path.
  return fillPath<string>(routePaths[id].path, params as Record<string, unknown> | undefined);
}

function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** SPEC §8: a response with a code or error field is thrown; so is any other non-OK answer. */
export function interpretResponse<T>({ status, ok, body }: RawResponse, failureMessage?: string): T {
  if (isRecord(body) && (body.code != null || body.error != null)) {
    const code = typeof body.code === 'number' || typeof body.code === 'string' ? body.code : status;
    const message =
      typeof body.error === 'string' ? body.error : (failureMessage ?? `Request failed with status ${status}`);
    throw new ApiError(code, message);
  }
  if (!ok) throw new ApiError(status, failureMessage ?? `Request failed with status ${status}`);
  return body as T;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
