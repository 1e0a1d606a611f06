import { routeOwner, type MfeName, type RouteEntry } from '@productgen/mf-shared';

/**
 * The free tools run threaded WASM inference, which needs a cross-origin isolated document: the web origin sends
 * their pages with COOP same-origin and COEP require-corp (packages/web-host setIsolationHeaders). The rest of the
 * site stays unisolated (Google's sign-in popup needs its opener). A document's isolation is fixed when it loads, so a
 * navigation inside the page that crosses between the two loads the new address as a full document instead.
 */
const ISOLATED_APP: MfeName = 'mfe_tools';

interface RoutingEventDetail {
  oldUrl: string;
  newUrl: string;
}

export function needsIsolation(pathname: string, routeTable: readonly RouteEntry[]): boolean {
  return routeOwner(pathname, routeTable) === ISOLATED_APP;
}

/**
 * Whether an in-page navigation must load its address as a full document. Only a real change of page counts: the
 * first routing (or a page served without the isolation headers, e.g. by a dev server) never reloads, so a document
 * whose headers are missing cannot loop.
 */
export function crossesIsolation(
  detail: RoutingEventDetail,
  isolated: boolean,
  routeTable: readonly RouteEntry[],
): boolean {
  const from = new URL(detail.oldUrl);
  const to = new URL(detail.newUrl);
  if (from.pathname === to.pathname) return false;
  return needsIsolation(to.pathname, routeTable) !== isolated;
}

/** Whether a link to `url` leaves this document's isolation (the browser then follows it as a full navigation). */
export function linkCrossesIsolation(url: URL, routeTable: readonly RouteEntry[]): boolean {
  return (
    url.pathname !== window.location.pathname &&
    needsIsolation(url.pathname, routeTable) !== (globalThis.crossOriginIsolated === true)
  );
}

/**
 * Reloads the new address as a document of its own when another in-page navigation (history, a router's own link, a
 * script) crosses between isolated and not; links crossing it are already followed as full navigations.
 */
export function loadIsolationChangesAsDocuments(routeTable: readonly RouteEntry[]): () => void {
  const onRouting = (event: Event) => {
    const detail = (event as CustomEvent<RoutingEventDetail>).detail;
    if (!crossesIsolation(detail, globalThis.crossOriginIsolated === true, routeTable)) return;
    // The address is already the new one: replacing it keeps one history entry for the page.
    window.location.replace(detail.newUrl);
  };
  window.addEventListener('single-spa:before-routing-event', onRouting);
  return () => window.removeEventListener('single-spa:before-routing-event', onRouting);
}
