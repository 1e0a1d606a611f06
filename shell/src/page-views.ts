// One page-view event per navigation (SPEC §2). single-spa fires its routing event after every reroute,
// which can happen more than once for one URL (e.g. an app registered late); a view is counted only
// when the address actually changed.

export function createPageViewTracker(track: () => void, currentHref: () => string = () => window.location.href) {
  let lastHref: string | null = null;
  return function onRoutingEvent(): void {
    const href = currentHref();
    if (href === lastHref) return;
    lastHref = href;
    track();
  };
}
