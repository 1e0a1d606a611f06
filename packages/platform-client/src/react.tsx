import { createContext, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import type { PlatformClient } from './client';
import { startPaymentReturnRefresh, type PaymentReturnOptions } from './payment-return';
import { SERVER_SESSION_STATE, type SessionState } from './session-store';
import { getPlatformClient } from './singleton';
import type { User } from './types';

const PlatformContext = createContext<PlatformClient | null>(null);

export interface PlatformProviderProps {
  /** Defaults to the configured singleton, so every microfrontend shares one session. */
  client?: PlatformClient;
  children?: ReactNode;
}

export function PlatformProvider({ client, children }: PlatformProviderProps) {
  const value = client ?? getPlatformClient();
  return <PlatformContext.Provider value={value}>{children}</PlatformContext.Provider>;
}

/** The client from the nearest PlatformProvider, else the configured singleton. */
export function usePlatformClient(): PlatformClient {
  return useContext(PlatformContext) ?? getPlatformClient();
}

export interface SessionView {
  user: User | null;
  loading: boolean;
  signedIn: boolean;
  error: Error | null;
  /** Refetches the user everywhere (emits auth-refresh). */
  refresh: () => void;
  signOut: () => Promise<void>;
}

/** The signed-in user, fetched at start and refetched on every auth-refresh from any MFE or tab. */
export function useSession(): SessionView {
  const client = usePlatformClient();
  const state: SessionState = useSyncExternalStore(
    client.session.subscribe,
    client.session.getSnapshot,
    () => SERVER_SESSION_STATE,
  );
  return useMemo(() => ({ ...state, refresh: client.refreshUser, signOut: client.logout }), [state, client]);
}

/** The user's credit balance, or null while unknown or signed out. */
export function useCredits(): number | null {
  const { user } = useSession();
  return user ? user.credits : null;
}

/** Runs the post-payment refresh (SPEC §4) once when mounted on a `payment=success` URL. */
export function usePaymentReturnRefresh(options?: PaymentReturnOptions): void {
  const client = usePlatformClient();
  const url = options?.url;
  const intervalMs = options?.intervalMs;
  const durationMs = options?.durationMs;
  useEffect(
    () => startPaymentReturnRefresh(client, { url, intervalMs, durationMs }),
    [client, url, intervalMs, durationMs],
  );
}
