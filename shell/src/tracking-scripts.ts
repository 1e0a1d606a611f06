import { TRACKING_SCRIPT_KINDS, type TrackingScripts } from '@productgen/mf-shared';

/**
 * Loads the analytics and pixel scripts the runtime config names (SPEC §2: they load on the layout), and only
 * those. They never hold the page up: they are added after the page has loaded, as async scripts.
 */
export function loadTrackingScripts(scripts: TrackingScripts): void {
  const urls = TRACKING_SCRIPT_KINDS.map((kind) => scripts[kind]).filter((url): url is string => Boolean(url));
  if (urls.length === 0) return;
  const addAll = () => {
    for (const url of urls) {
      const script = document.createElement('script');
      script.src = url;
      script.async = true;
      document.head.appendChild(script);
    }
  };
  if (document.readyState === 'complete') addAll();
  else window.addEventListener('load', addAll, { once: true });
}
