import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  configurePlatformClient,
  createPlatformClient,
  getPlatformClient,
  PlatformProvider,
  resetPlatformClient,
  SIGNED_IN_HINT_NAME,
  startPaymentReturnRefresh,
  useCredits,
  useSession,
  type PlatformClient,
} from '@productgen/platform-client';
import { clearAllCookies, fakeFetch } from '@productgen/platform-client/test-support';

const API = 'https://api.productgen.test';

function SessionBadge() {
  const { user, loading, signedIn, signOut } = useSession();
  const credits = useCredits();
  return (
    <div>
      <p data-testid="state">{loading ? 'loading' : signedIn ? `signed in as ${user?.name}` : 'signed out'}</p>
      <p data-testid="credits">{credits ?? 'none'}</p>
      <button onClick={() => void signOut()}>Sign out</button>
    </div>
  );
}

function userReplies(...users: Array<{ name: string; credits: number } | 401>) {
  return users.map((user) => (user === 401 ? { status: 401 } : { body: { email: 'a@b.test', ...user } }));
}

beforeEach(() => {
  clearAllCookies();
  window.localStorage.clear();
  resetPlatformClient();
});

describe('useSession', () => {
  it('fetches the user at start and again on every auth-refresh from any microfrontend', async () => {
    window.localStorage.setItem(SIGNED_IN_HINT_NAME, 'true');
    const { fetchImpl, requests } = fakeFetch({
      'GET /auth/me': userReplies({ name: 'Ada', credits: 10 }, { name: 'Ada', credits: 4 }),
    });
    const client = createPlatformClient({ apiBaseUrl: API, fetchImpl });
    render(
      <PlatformProvider client={client}>
        <SessionBadge />
      </PlatformProvider>,
    );

    expect(screen.getByTestId('state')).toHaveTextContent('loading');
    await waitFor(() => expect(screen.getByTestId('state')).toHaveTextContent('signed in as Ada'));
    expect(screen.getByTestId('credits')).toHaveTextContent('10');

    // Another MFE spent credits and asks everyone to refetch through the shared emitter.
    act(() => client.events.emit('auth-refresh'));

    await waitFor(() => expect(screen.getByTestId('credits')).toHaveTextContent('4'));
    expect(requests.filter((r) => r.url.pathname === '/auth/me')).toHaveLength(2);
  });

  it("keeps fetching quietly while a new account's credits are pending, then stops", async () => {
    window.localStorage.setItem(SIGNED_IN_HINT_NAME, 'true');
    const { fetchImpl, requests } = fakeFetch({
      'GET /auth/me': [
        { body: { email: 'a@b.test', name: 'Ada', credits: 0, credits_pending: true } },
        { body: { email: 'a@b.test', name: 'Ada', credits: 0, credits_pending: true } },
        { body: { email: 'a@b.test', name: 'Ada', credits: 10, credits_pending: false } },
      ],
    });
    const client = createPlatformClient({ apiBaseUrl: API, fetchImpl });
    render(
      <PlatformProvider client={client}>
        <SessionBadge />
      </PlatformProvider>,
    );

    await waitFor(() => expect(screen.getByTestId('credits')).toHaveTextContent('0'));
    // The retries never show the loading state: the user stays on screen while the bonus arrives.
    await waitFor(() => expect(screen.getByTestId('credits')).toHaveTextContent('10'), { timeout: 3000 });
    expect(screen.getByTestId('state')).toHaveTextContent('signed in as Ada');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(requests.filter((r) => r.url.pathname === '/auth/me')).toHaveLength(3);
  });

  it('shows signed out when the current-user check answers 401', async () => {
    const { fetchImpl } = fakeFetch({ 'GET /auth/me': { status: 401 } });
    render(
      <PlatformProvider client={createPlatformClient({ apiBaseUrl: API, fetchImpl })}>
        <SessionBadge />
      </PlatformProvider>,
    );

    await waitFor(() => expect(screen.getByTestId('state')).toHaveTextContent('signed out'));
    expect(screen.getByTestId('credits')).toHaveTextContent('none');
  });

  it('refetches when another tab signs in or out', async () => {
    const { fetchImpl } = fakeFetch({ 'GET /auth/me': userReplies(401, { name: 'Grace', credits: 3 }) });
    const client = createPlatformClient({ apiBaseUrl: API, fetchImpl });
    render(
      <PlatformProvider client={client}>
        <SessionBadge />
      </PlatformProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('state')).toHaveTextContent('signed out'));

    act(() => {
      window.localStorage.setItem(SIGNED_IN_HINT_NAME, 'true');
      window.dispatchEvent(new StorageEvent('storage', { key: SIGNED_IN_HINT_NAME, newValue: 'true' }));
    });

    await waitFor(() => expect(screen.getByTestId('state')).toHaveTextContent('signed in as Grace'));
  });

  it('signs out everywhere: the 401 of another call ends the session and the hook follows', async () => {
    window.localStorage.setItem(SIGNED_IN_HINT_NAME, 'true');
    const { fetchImpl } = fakeFetch({
      'GET /auth/me': userReplies({ name: 'Ada', credits: 1 }, 401),
      'GET /records': { status: 401 },
    });
    const client = createPlatformClient({ apiBaseUrl: API, fetchImpl });
    render(
      <PlatformProvider client={client}>
        <SessionBadge />
      </PlatformProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('state')).toHaveTextContent('signed in as Ada'));

    await act(async () => {
      await expect(client.records()).rejects.toMatchObject({ code: 401 });
    });

    await waitFor(() => expect(screen.getByTestId('state')).toHaveTextContent('signed out'));
    expect(client.isSignedIn()).toBe(false);
  });

  it('signOut calls logout and clears the session', async () => {
    window.localStorage.setItem(SIGNED_IN_HINT_NAME, 'true');
    const { fetchImpl, requests } = fakeFetch({
      'GET /auth/me': userReplies({ name: 'Ada', credits: 1 }, 401),
      'POST /auth/logout': { body: { success: true } },
    });
    render(
      <PlatformProvider client={createPlatformClient({ apiBaseUrl: API, fetchImpl })}>
        <SessionBadge />
      </PlatformProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('state')).toHaveTextContent('signed in as Ada'));

    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));

    await waitFor(() => expect(screen.getByTestId('state')).toHaveTextContent('signed out'));
    expect(requests.some((r) => r.method === 'POST' && r.url.pathname === '/auth/logout')).toBe(true);
  });

  it('uses the configured singleton when no client is passed', async () => {
    expect(() => getPlatformClient()).toThrow('The platform client is not configured');
    const { fetchImpl } = fakeFetch({ 'GET /auth/me': userReplies({ name: 'Lin', credits: 2 }) });
    const client = configurePlatformClient({ apiBaseUrl: API, fetchImpl });
    expect(getPlatformClient()).toBe(client);

    render(
      <PlatformProvider>
        <SessionBadge />
      </PlatformProvider>,
    );

    await waitFor(() => expect(screen.getByTestId('state')).toHaveTextContent('signed in as Lin'));
  });
});

describe('return from payment', () => {
  afterEach(() => jest.useRealTimers());

  function paymentClient() {
    const calls: string[] = [];
    const client: Pick<PlatformClient, 'trackEvent' | 'checkPaymentSuccess' | 'refreshUser'> = {
      trackEvent: async (en, data) => {
        calls.push(`track ${en} ${JSON.stringify(data)}`);
        return { success: true };
      },
      checkPaymentSuccess: async (sessionId) => {
        calls.push(`check ${sessionId}`);
        return { paid: true, credits: 50 };
      },
      refreshUser: () => void calls.push('refresh'),
    };
    return { client, calls };
  }

  it('tracks Paid and fires auth-refresh every 4 s for 12 s', async () => {
    jest.useFakeTimers();
    const { client, calls } = paymentClient();

    startPaymentReturnRefresh(client, { url: 'https://app.test/dashboard?payment=success&session_id=cs_9' });
    await jest.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(['track Paid {"session_id":"cs_9"}', 'check cs_9', 'refresh']);

    await jest.advanceTimersByTimeAsync(4_000);
    expect(calls.filter((c) => c === 'refresh')).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(30_000);
    // One refresh after the confirmation, then one at 4, 8 and 12 s, and none after.
    expect(calls.filter((c) => c === 'refresh')).toHaveLength(4);
  });

  it('does nothing without payment=success', async () => {
    jest.useFakeTimers();
    const { client, calls } = paymentClient();

    startPaymentReturnRefresh(client, { url: 'https://app.test/dashboard?payment=cancelled' });
    await jest.advanceTimersByTimeAsync(20_000);

    expect(calls).toEqual([]);
  });
});
