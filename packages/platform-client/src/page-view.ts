import type { PageViewPayload } from './types';

/** SPEC §7: what every route change reports through POST /pst. */
export function buildPageViewPayload(now: Date = new Date()): PageViewPayload {
  const { pathname, search, hash } = window.location;
  return {
    path: pathname,
    full_path: `${pathname}${search}${hash}`,
    referrer: document.referrer,
    user_agent: navigator.userAgent,
    timestamp: now.toISOString(),
    viewport_width: window.innerWidth,
    viewport_height: window.innerHeight,
  };
}
