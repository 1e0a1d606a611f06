import type { AppProps, LifeCycles } from 'single-spa';

// style-loader tags every style element an app injects with data-mfe-styles="<container name>" (see
// webpack/index.js). An unmounted app must not keep styling the page, so its tags leave the document on
// unmount and come back on the next mount (style-loader injects them only once, at module evaluation).

function styleTagsOf(name: string): HTMLStyleElement[] {
  return [...document.querySelectorAll<HTMLStyleElement>(`style[data-mfe-styles="${name}"]`)];
}

type LifecycleFn<P> = (props: P & AppProps) => Promise<unknown>;

function asArray<P>(fn: LifecycleFn<P> | LifecycleFn<P>[]): LifecycleFn<P>[] {
  return Array.isArray(fn) ? fn : [fn];
}

export function withScopedStyles<P extends object>(name: string, lifecycles: LifeCycles<P>): LifeCycles<P> {
  let detached: HTMLStyleElement[] = [];
  const restoreStyles = async () => {
    for (const tag of detached) document.head.appendChild(tag);
    detached = [];
  };
  const detachStyles = async () => {
    detached = styleTagsOf(name);
    for (const tag of detached) tag.remove();
  };
  return {
    ...lifecycles,
    mount: [restoreStyles, ...asArray(lifecycles.mount)],
    unmount: [...asArray(lifecycles.unmount), detachStyles],
  };
}
