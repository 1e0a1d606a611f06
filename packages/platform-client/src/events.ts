/** auth-refresh: the user must be refetched. auth-fetched: an API call has completed. */
export type PlatformEvent = 'auth-refresh' | 'auth-fetched';

type Listener = () => void;

/**
 * A tiny synchronous emitter. The platform client is a module-federation singleton, so one emitter
 * instance carries these events between every microfrontend on the page.
 */
export class PlatformEvents {
  private readonly listeners = new Map<PlatformEvent, Set<Listener>>();

  on(event: PlatformEvent, listener: Listener): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  emit(event: PlatformEvent): void {
    // Copy first: a listener may unsubscribe itself while we iterate.
    for (const listener of [...(this.listeners.get(event) ?? [])]) listener();
  }
}
