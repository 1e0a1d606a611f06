import type { PlatformEvents } from './events';
import { SIGNED_IN_HINT_NAME, type SessionHint } from './session-key';
import type { User } from './types';

export interface SessionState {
  user: User | null;
  /** True until the first current-user check answers, and during every refetch. */
  loading: boolean;
  /** While loading: whether this browser signed in (the hint); afterwards: whether the server knows the user. */
  signedIn: boolean;
  /** The last failure of the current-user check other than "not signed in" (network, server error). */
  error: Error | null;
}

/** What a server render sees: nothing is known yet, so render signed out and let hydration catch up. */
export const SERVER_SESSION_STATE: SessionState = Object.freeze({
  user: null,
  loading: true,
  signedIn: false,
  error: null,
});

/**
 * The signed-in user shared by every microfrontend. It fetches the user when the first subscriber arrives
 * and again on every auth-refresh (from any MFE through the shared emitter, or from another tab through the
 * storage event); listening stops when the last subscriber leaves.
 */
/** Waits between quiet refetches while the server says the balance is still pending (then give up). */
export const PENDING_CREDITS_RETRY_MS = [300, 600, 1200, 2400, 4800] as const;

export class SessionStore {
  private state: SessionState;
  private readonly subscribers = new Set<() => void>();
  private detach: (() => void) | null = null;
  private latestLoad = 0;
  private pendingRetry: { attempt: number; timer: ReturnType<typeof setTimeout> } | null = null;

  constructor(
    private readonly fetchUser: () => Promise<User | false>,
    private readonly hint: SessionHint,
    private readonly events: PlatformEvents,
  ) {
    this.state = { user: null, loading: true, signedIn: hint.isSignedIn(), error: null };
  }

  getSnapshot = (): SessionState => this.state;

  subscribe = (subscriber: () => void): (() => void) => {
    this.subscribers.add(subscriber);
    if (!this.detach) this.detach = this.attach();
    return () => {
      this.subscribers.delete(subscriber);
      if (this.subscribers.size === 0 && this.detach) {
        this.detach();
        this.detach = null;
      }
    };
  };

  /**
   * Refetches the user; overlapping refreshes resolve in order and only the latest answer is kept. A quiet
   * refresh keeps showing the current user meanwhile (no loading state).
   */
  async refresh(options: { quiet?: boolean } = {}): Promise<void> {
    const load = ++this.latestLoad;
    if (!options.quiet) {
      this.cancelPendingRetry();
      // Until the server answers, the hint is the best evidence (the HttpOnly cookie is out of the page's reach).
      this.update({ loading: true, signedIn: this.hint.isSignedIn() });
    }
    try {
      const user = await this.fetchUser();
      if (load !== this.latestLoad) return;
      this.update({ user: user || null, loading: false, signedIn: !!user, error: null });
      if (user && user.credits_pending) this.retryWhileCreditsPending();
      else this.cancelPendingRetry();
    } catch (error) {
      if (load === this.latestLoad) {
        this.update({ loading: false, error: error instanceof Error ? error : new Error(String(error)) });
      }
    }
  }

  /** A new account's signup bonus is granted asynchronously: fetch again a few times until it has arrived. */
  private retryWhileCreditsPending(): void {
    const attempt = this.pendingRetry ? this.pendingRetry.attempt + 1 : 0;
    const delay = PENDING_CREDITS_RETRY_MS[attempt];
    this.cancelPendingRetry();
    if (delay === undefined || !this.detach) return;
    this.pendingRetry = { attempt, timer: setTimeout(() => void this.refresh({ quiet: true }), delay) };
  }

  private cancelPendingRetry(): void {
    if (this.pendingRetry) clearTimeout(this.pendingRetry.timer);
    this.pendingRetry = null;
  }

  private attach(): () => void {
    const refresh = () => void this.refresh();
    const offRefresh = this.events.on('auth-refresh', refresh);
    // Another tab signed in or out: its hint write reaches us as a storage event (key null = storage cleared).
    const onStorage = (event: StorageEvent) => {
      if (event.key === SIGNED_IN_HINT_NAME || event.key === null) this.events.emit('auth-refresh');
    };
    if (typeof window !== 'undefined') window.addEventListener('storage', onStorage);
    refresh();
    return () => {
      this.cancelPendingRetry();
      offRefresh();
      if (typeof window !== 'undefined') window.removeEventListener('storage', onStorage);
    };
  }

  private update(patch: Partial<SessionState>): void {
    this.state = { ...this.state, ...patch };
    for (const subscriber of [...this.subscribers]) subscriber();
  }
}
