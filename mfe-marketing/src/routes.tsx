import type { RouteObject } from 'react-router';
import { Suspense, type ReactElement } from 'react';
import { Spinner } from '@productgen/ui-kit';
import type { SiteRoute } from './content/schema';
import { getSiteIndex } from './content/site-data';
import { LoginPage } from './login/LoginPage';
import { ContentPage } from './pages/ContentPage';

/** Pages with behaviour beyond their content file (the content still gives their texts and meta). */
const CUSTOM_PAGES: Record<string, (slug: string) => ReactElement> = {
  login: (slug) => <LoginPage slug={slug} />,
};

/** One react-router route per path of the routes manifest (every content file and its aliases). */
export function routesFromManifest(routes: readonly SiteRoute[]): RouteObject[] {
  return routes.map((route) => ({
    path: route.path,
    element: (
      <Suspense fallback={<Spinner label="Loading..." />}>
        {CUSTOM_PAGES[route.slug]?.(route.slug) ?? <ContentPage slug={route.slug} />}
      </Suspense>
    ),
  }));
}

/** The app's routes, read when it mounts (the site index is loaded at bootstrap). */
export function routes(): RouteObject[] {
  return routesFromManifest(getSiteIndex().routes);
}
