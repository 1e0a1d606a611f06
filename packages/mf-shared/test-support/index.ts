// Test helpers for the browser workspaces: a real platform client whose network is a scripted fetch,
// so components are tested with the client's true session logic and only the API answers are staged.
import { createElement } from 'react';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, type RouteObject } from 'react-router';
import {
  createPlatformClient,
  PlatformProvider,
  SIGNED_IN_HINT_NAME,
  type PlatformClient,
  type User,
} from '@productgen/platform-client';
import {
  clearAllCookies,
  fakeFetch,
  type FakeRoute,
  type RecordedRequest,
  type Reply,
} from '@productgen/platform-client/test-support';
import { mfeRouteTree, RouteTree } from '../src/mfe-app';
import { routesOf, type MfeName } from '../src/routes';

export type { FakeRoute, RecordedRequest, Reply };

export const TEST_API = 'https://api.productgen.test';

/** A user as GET /auth/me answers it. */
export const TEST_USER: User = {
  id: 'user-ada',
  name: 'Ada Lovelace',
  given_name: 'Ada',
  family_name: 'Lovelace',
  email: 'ada@example.com',
  picture: '',
  credits: 12,
  site_url: 'https://ada.example',
  shop_context: [{ category_id: 'kitchen', label: 'Kitchenware' }],
  flags: { is_first_generation: false, showSiteUrlTooltip: false },
};

/** An answer that never comes: the component stays in its loading state. */
export const NEVER: FakeRoute = () => new Promise<Reply>(() => {});

/**
 * @param routes keyed by "METHOD /path"; an array answers in turn and then repeats its last reply
 * @param signedIn whether this browser signed in before the client starts (the client's signed-in hint; the key
 *   itself is the API's HttpOnly cookie, which no page script sees)
 */
export function fakeApiClient(
  routes: Record<string, FakeRoute>,
  { signedIn = false }: { signedIn?: boolean } = {},
): { client: PlatformClient; requests: RecordedRequest[] } {
  clearAllCookies();
  window.localStorage.clear();
  if (signedIn) {
    window.localStorage.setItem(SIGNED_IN_HINT_NAME, 'true');
  }
  const { fetchImpl, uploadImpl, requests } = fakeFetch(routes);
  const client = createPlatformClient({ apiBaseUrl: TEST_API, fetchImpl, uploadImpl, logger: { warn: () => {} } });
  return { client, requests };
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
        // Read at once: a page that sends visitors away may leave the tree right after rendering its heading.
        const [heading] = await screen.findAllByRole('heading', { level: 1 });
        expect(heading?.tagName).toBe('H1');
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
