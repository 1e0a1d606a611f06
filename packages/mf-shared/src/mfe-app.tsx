import { useState, type ReactElement } from 'react';
import * as React from 'react';
import * as ReactDOMClient from 'react-dom/client';
import { BrowserRouter, Outlet, useLocation, useRoutes, type RouteObject } from 'react-router';
import singleSpaReact from 'single-spa-react';
import type { LifeCycles } from 'single-spa';
import { PlatformProvider } from '@productgen/platform-client';
import { OopsScreen, PageErrorBoundary } from './error-screens';
import { RoutePage } from './route-page';
import { routesOf, type MfeName } from './routes';
import { withScopedStyles } from './scoped-styles';

/** The element the shell mounts an app into (and the web origin fills with a prerendered page). */
export function appContainerId(name: string): string {
  return `pg-app-${name}`;
}

export interface MfeAppOptions {
  /** The module-federation container name, e.g. "mfe_dashboard" (also tags the app's style elements). */
  name: string;
  /** The app's pages; paths are absolute ("/settings"). A function is called at mount (after bootstrap). */
  routes: RouteObject[] | (() => RouteObject[]);
  /**
   * The app's container may hold its prerendered HTML (marketing pages): then React hydrates it instead of
   * rendering from scratch, so the page a visitor already sees is kept and made interactive.
   */
  hydrate?: boolean;
}

/** The layout route of every app's pages: a page that throws shows "Oops" until the visitor goes elsewhere. */
function PagesLayout() {
  const { pathname } = useLocation();
  return (
    <PageErrorBoundary pathname={pathname}>
      <Outlet />
    </PageErrorBoundary>
  );
}

/**
 * The route tree of one microfrontend: its pages under one layout route that catches a page's errors, plus a
 * catch-all that renders nothing, because a path this app does not own is about to be handled by single-spa
 * (which unmounts this app) and must not flash a 404 here first.
 */
export function mfeRouteTree(routes: RouteObject[]): RouteObject[] {
  return [{ element: <PagesLayout />, children: [...routes, { path: '*', element: null }] }];
}

/** Renders a route tree under whichever router is around it: the browser's, the prerender's or a test's. */
export function RouteTree({ routes }: { routes: RouteObject[] }) {
  return useRoutes(routes);
}

/**
 * One app's router over the browser history. The declarative router, not a data router: no app uses loaders or
 * actions, and the data router's code is about 14 KB compressed more on every page.
 */
function MfeRoot({ routes }: { routes: RouteObject[] | (() => RouteObject[]) }) {
  const [tree] = useState(() => mfeRouteTree(typeof routes === 'function' ? routes() : routes));
  return (
    <PlatformProvider>
      <BrowserRouter>
        <RouteTree routes={tree} />
      </BrowserRouter>
    </PlatformProvider>
  );
}

/** single-spa lifecycles (bootstrap/mount/unmount) for a react-router microfrontend. */
export function createMfeLifecycles({ name, routes, hydrate = false }: MfeAppOptions): LifeCycles {
  // Hydration needs a container that already holds this app's prerendered markup: the shell mounts every
  // app into #pg-app-<name>, which the web origin fills for a prerendered page.
  const hasPrerenderedMarkup = () => (document.getElementById(appContainerId(name))?.childElementCount ?? 0) > 0;
  const lifecycles = singleSpaReact({
    React,
    ReactDOMClient,
    rootComponent: () => <MfeRoot routes={routes} />,
    errorBoundary: (error: Error) => <OopsScreen error={error} />,
    renderType: () => (hydrate && hasPrerenderedMarkup() ? 'hydrateRoot' : 'createRoot'),
  });
  return withScopedStyles(name, lifecycles);
}

/**
 * React-router routes for every route-table path an app owns: the given page elements where an app has
 * built a page, the route's intro (title and purpose) elsewhere.
 */
export function routesFor(owner: MfeName, pages: Partial<Record<string, ReactElement>> = {}): RouteObject[] {
  const owned = routesOf(owner);
  for (const path of Object.keys(pages)) {
    if (!owned.some((entry) => entry.path === path)) throw new Error(`${owner} does not own the route "${path}"`);
  }
  return owned.map((entry) => ({ path: entry.path, element: pages[entry.path] ?? <RoutePage path={entry.path} /> }));
}
