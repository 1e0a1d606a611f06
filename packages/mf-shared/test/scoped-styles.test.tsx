import type { AppProps, LifeCycles } from 'single-spa';
import { withScopedStyles } from '@productgen/mf-shared';

function styleTag(owner: string): HTMLStyleElement {
  const tag = document.createElement('style');
  tag.dataset.mfeStyles = owner;
  document.head.appendChild(tag);
  return tag;
}

describe('withScopedStyles', () => {
  it("removes an app's style tags on unmount and restores them on the next mount", async () => {
    const own = styleTag('mfe_tools');
    const other = styleTag('shell');
    const calls: string[] = [];
    const app: LifeCycles = withScopedStyles('mfe_tools', {
      bootstrap: async () => {},
      mount: async () => void calls.push('mount'),
      unmount: async () => void calls.push('unmount'),
    });
    const props = {} as AppProps;
    const run = async (steps: LifeCycles['mount']) => {
      for (const step of Array.isArray(steps) ? steps : [steps]) await step(props);
    };

    await run(app.unmount);
    expect(own.isConnected).toBe(false);
    expect(other.isConnected).toBe(true);

    await run(app.mount);
    expect(own.isConnected).toBe(true);
    expect(calls).toEqual(['unmount', 'mount']);
  });
});
