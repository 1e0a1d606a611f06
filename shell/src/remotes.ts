import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { LifeCycles } from 'single-spa';
import type { RemoteRegistry } from '@productgen/mf-shared';
import { asLifecycles, type RemoteProps } from './remote-application';

/** Every microfrontend exposes its single-spa lifecycles as "./app". */
export const EXPOSED_APP = 'app';

function registryEntries(registry: RemoteRegistry) {
  return Object.entries(registry).map(([name, entry]) => ({ name, entry }));
}

/** Tells the module-federation runtime where each deployed remote lives (its versioned mf-manifest.json). */
export function registerRemoteRegistry(registry: RemoteRegistry): void {
  registerRemotes(registryEntries(registry));
}

/**
 * Loads a remote's lifecycles. A retry (attempt > 0) re-registers the remote with `force`, which drops the
 * runtime's cached failure and fetches the manifest and entry again.
 */
export function makeRemoteLoader(name: string, registry: RemoteRegistry) {
  return async (attempt: number): Promise<LifeCycles<RemoteProps>> => {
    const entry = registry[name];
    if (!entry) throw new Error(`The microfrontend "${name}" is not listed in remotes.json`);
    if (attempt > 0) registerRemotes([{ name, entry }], { force: true });
    const module = await loadRemote<unknown>(`${name}/${EXPOSED_APP}`);
    return asLifecycles(name, module);
  };
}
