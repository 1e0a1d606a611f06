// Test helpers for the browser workspaces: a real platform client whose network is a scripted fetch,
// so components are tested with the client's true session logic and only the API answers are staged.
import { createElement } from 'react';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, useRoutes, type RouteObject } from 'react-router';
import { createPlatformClient, PlatformProvider, type PlatformClient } from '@productgen/platform-client';
import { mfeRouteTree } from '../src/mfe-app';
import { routesOf, type MfeName } from '../src/routes';

export const TEST_API = 'https://api.productgen.test';

export interface Reply {
  status?: number;
  body?: unknown;
}

export interface RecordedRequest {
  method: string;
  path: string;
  json: unknown;
}

type Route = Reply | Reply[] | ((request: RecordedRequest) => Reply | Promise<Reply>);

/** A user as GET /auth/me answers it. */
export const TEST_USER = {
  name: 'Ada Lovelace',
  given_name: 'Ada',
  family_name: 'Lovelace',
  email: 'ada@example.com',
  picture: '',
  credits: 12,
  site_url: 'https://ada.example',
  shop_context: [{ category: 'kitchen', label: 'Kitchenware' }],
  flags: { is_first_generation: false, showSiteUrlTooltip: false },
};

/** An answer that never comes: the component stays in its loading state. */
export const NEVER: Route = () => new Promise<Reply>(() => {});

export function clearCookies(): void {
  for (const pair of document.cookie.split(';')) {
    const name = pair.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
  }
}

/**
 * @param routes keyed by "METHOD /path"; an array answers in turn and then repeats its last reply
 * @param signedIn whether a session key is present before the client starts (cookie + storage)
 */
export function fakeApiClient(
  routes: Record<string, Route>,
  { signedIn = false }: { signedIn?: boolean } = {},
): { client: PlatformClient; requests: RecordedRequest[] } {
  clearCookies();
  window.localStorage.clear();
  if (signedIn) {
    document.cookie = 'session_key=test-session; path=/';
    window.localStorage.setItem('session_key', 'test-session');
  }
  const requests: RecordedRequest[] = [];
  const served = new Map<string, number>();
  const fetchImpl = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const method = init.method ?? 'GET';
    const request: RecordedRequest = {
      method,
      path: url.pathname,
      json: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    requests.push(request);
    const key = `${method} ${url.pathname}`;
    const route = routes[key];
    if (!route) throw new Error(`fake API has no route for ${key}`);
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
  const client = createPlatformClient({
    apiBaseUrl: TEST_API,
    fetchImpl: fetchImpl as typeof fetch,
    logger: { warn: () => {} },
  });
  return { client, requests };
}

function RouteTree({ routes }: { routes: RouteObject[] }) {
  return useRoutes(routes);
}

/** Renders an app's route list at a path, inside a platform client provider (as the app's root does). */
export function renderAt(routes: RouteObject[], path: string, client: PlatformClient) {
  return render(
    createElement(
      PlatformProvider,
      { client },
      createElement(MemoryRouter, { initialEntries: [path] }, createElement(RouteTree, { routes })),
    ),
  );
}

/**
 * The route suite every microfrontend runs: each of its routes renders a page heading with the right title, and a
 * path another app owns renders nothing.
 */
export function describeMfeRoutes(owner: MfeName, routes: RouteObject[]): void {
  const signedOut = { 'GET /auth/me': { status: 401 } };
  describe(`${owner} routes`, () => {
    it.each(routesOf(owner).map((entry) => [entry.path, entry] as const))(
      '%s renders its page with its title',
      async (path, entry) => {
        const { client } = fakeApiClient(signedOut);
        renderAt(mfeRouteTree(routes), path.replace(':bulkJobUuid', 'job-1'), client);
        expect((await screen.findAllByRole('heading', { level: 1 }))[0]).toBeInTheDocument();
        expect(document.title).toBe(`${entry.title} | ProductGen`);
      },
    );

    it('renders nothing for a path another app owns', () => {
      const { client } = fakeApiClient(signedOut);
      const { container } = renderAt(mfeRouteTree(routes), '/owned-elsewhere', client);
      expect(container).toBeEmptyDOMElement();
    });
  });
}
