// Test helpers of the browser workspaces: a scripted stand-in for fetch (the client's logic is what is under test,
// not the network) and cookie helpers for jsdom. @productgen/mf-shared/test-support builds its fake API on these.

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
  body: BodyInit | null | undefined;
  json: unknown;
}

export type FakeRoute = Reply | Reply[] | ((request: RecordedRequest) => Reply | Promise<Reply>);

/** Routes are keyed by "METHOD /path"; an array answers in turn and repeats its last reply. */
export function fakeFetch(routes: Record<string, FakeRoute>) {
  const requests: RecordedRequest[] = [];
  const served = new Map<string, number>();

  const fetchImpl = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const method = init.method ?? 'GET';
    const body = init.body;
    const request: RecordedRequest = {
      url,
      path: url.pathname,
      method,
      headers: { ...(init.headers as Record<string, string>) },
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
    return {
      status,
      ok: status >= 200 && status < 300,
      text: async () => (reply.body === undefined ? '' : JSON.stringify(reply.body)),
    } as Response;
  };

  return { fetchImpl: fetchImpl as typeof fetch, requests };
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
