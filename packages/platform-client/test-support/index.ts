// Test helpers of the browser workspaces: a scripted stand-in for fetch (the client's logic is what is under test,
// not the network) and cookie helpers for jsdom. @productgen/mf-shared/test-support builds its fake API on these.
import type { UploadImpl } from '../src/browser-env';

export interface Reply {
  status?: number;
  body?: unknown;
}

export interface RecordedRequest {
  url: URL;
  /** url.pathname, what routes are keyed by. */
  path: string;
  method: string;
  headers: Record<string, string>;
  /** fetch's credentials mode; the upload channel (XMLHttpRequest withCredentials) records 'include'. */
  credentials: RequestCredentials | undefined;
  body: BodyInit | null | undefined;
  json: unknown;
}

export type FakeRoute = Reply | Reply[] | ((request: RecordedRequest) => Reply | Promise<Reply>);

/** Progress reports the fake upload channel gives before answering: half the body, then all of it. */
export const FAKE_UPLOAD_STEPS: readonly number[] = [0.5, 1];
const FAKE_UPLOAD_BYTES = 1000;

/**
 * Routes are keyed by "METHOD /path"; an array answers in turn and repeats its last reply. `uploadImpl` is the
 * client's upload channel (progress-reporting requests) answered from the same routes and recorded in the same list.
 */
export function fakeFetch(routes: Record<string, FakeRoute>) {
  const requests: RecordedRequest[] = [];
  const served = new Map<string, number>();

  const answer = async (
    input: string,
    method: string,
    headers: Record<string, string>,
    body: BodyInit | null | undefined,
    credentials: RequestCredentials | undefined,
  ) => {
    const url = new URL(input);
    const request: RecordedRequest = {
      url,
      path: url.pathname,
      method,
      headers: { ...headers },
      credentials,
      body,
      json: typeof body === 'string' ? JSON.parse(body) : undefined,
    };
    requests.push(request);
    const key = `${method} ${url.pathname}`;
    const route = routes[key];
    if (!route) throw new Error(`fake fetch has no route for ${key}`);
    let reply: Reply;
    if (typeof route === 'function') reply = await route(request);
    else if (Array.isArray(route)) {
      const index = served.get(key) ?? 0;
      served.set(key, index + 1);
      reply = route[Math.min(index, route.length - 1)] ?? {};
    } else reply = route;
    const status = reply.status ?? 200;
    return { status, text: reply.body === undefined ? '' : JSON.stringify(reply.body) };
  };

  const fetchImpl = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const { status, text } = await answer(
      String(input),
      init.method ?? 'GET',
      init.headers as Record<string, string>,
      init.body,
      init.credentials,
    );
    return { status, ok: status >= 200 && status < 300, text: async () => text } as Response;
  };

  const uploadImpl: UploadImpl = async ({ url, method, headers, body, onProgress }) => {
    for (const share of FAKE_UPLOAD_STEPS) onProgress(share * FAKE_UPLOAD_BYTES, FAKE_UPLOAD_BYTES);
    return answer(url, method, headers, body, 'include');
  };

  return { fetchImpl: fetchImpl as typeof fetch, uploadImpl, requests };
}

export function clearAllCookies(): void {
  for (const pair of document.cookie.split(';')) {
    const name = pair.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
  }
}

export function cookieValue(name: string): string | undefined {
  const prefix = `${name}=`;
  const pair = document.cookie
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(prefix));
  return pair === undefined ? undefined : decodeURIComponent(pair.slice(prefix.length));
}
