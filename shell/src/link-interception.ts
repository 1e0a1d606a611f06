import { navigateToUrl } from 'single-spa';

/**
 * Same-origin links anywhere on the page (chrome, menus, content) navigate through single-spa instead of
 * reloading the page. Clicks a router already handled (defaultPrevented), new-tab gestures, downloads and
 * links with a target keep the browser's behaviour.
 */
export function shouldInterceptClick(
  event: MouseEvent,
  origin: string = window.location.origin,
): HTMLAnchorElement | null {
  if (event.defaultPrevented || event.button !== 0) return null;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const anchor = event.target instanceof Element ? event.target.closest('a') : null;
  if (!anchor || !anchor.href || anchor.hasAttribute('download')) return null;
  if (anchor.target && anchor.target !== '_self') return null;
  const url = new URL(anchor.href);
  if (url.origin !== origin) return null;
  return anchor;
}

/** `loadsAsDocument`: addresses the browser must load as a full document (see cross-origin-isolation.ts). */
export function interceptLinkClicks(loadsAsDocument: (url: URL) => boolean = () => false): () => void {
  const onClick = (event: MouseEvent) => {
    const anchor = shouldInterceptClick(event);
    if (!anchor || loadsAsDocument(new URL(anchor.href))) return;
    event.preventDefault();
    navigateToUrl(anchor.href);
  };
  document.addEventListener('click', onClick);
  return () => document.removeEventListener('click', onClick);
}
