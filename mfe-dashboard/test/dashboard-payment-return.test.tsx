import { act, screen, within } from '@testing-library/react';
import { mfeRouteTree } from '@productgen/mf-shared';
import { fakeApiClient, renderAt, TEST_USER, type RecordedRequest } from '@productgen/mf-shared/test-support';
import { PAYMENT_REFRESH_DURATION_MS, PAYMENT_REFRESH_INTERVAL_MS } from '@productgen/platform-client';
import { routes } from '../src/routes';

const SIGNUP = {
  id: 'entry-1',
  created_at: '2025-06-01T12:00:00.000Z',
  description: 'Signup bonus',
  generation_id: null,
  transaction_type: 'increase',
  amount: 10,
  balance_after: 10,
};
const PURCHASE = {
  id: 'entry-2',
  created_at: '2025-06-01T12:05:00.000Z',
  description: 'Purchase: Small Business (50 credits)',
  generation_id: null,
  transaction_type: 'increase',
  amount: 50,
  balance_after: 60,
};

/** Lets the fake API's answers (promise chains, no timers) reach the components. */
async function settle(): Promise<void> {
  for (let round = 0; round < 5; round += 1) {
    await act(async () => {
      await jest.advanceTimersByTimeAsync(0);
    });
  }
}

async function elapse(ms: number): Promise<void> {
  await act(async () => {
    await jest.advanceTimersByTimeAsync(ms);
  });
  await settle();
}

/**
 * A user who has just paid: the webhook lands a moment after the browser returns, so the first current-user
 * checks still see the old balance, and the refreshes afterwards see the new one.
 */
function paidUserApi() {
  let credited = false;
  const api = fakeApiClient(
    {
      'GET /auth/me': () => ({ body: { ...TEST_USER, credits: credited ? 60 : 10 } }),
      'GET /records': { body: { records: [] } },
      'GET /credits/log': () => ({
        body: credited ? { items: [PURCHASE, SIGNUP], total: 2 } : { items: [SIGNUP], total: 1 },
      }),
      'POST /payments/check-success': { body: { paid: false, credits: 10 } },
      'POST /pst': { body: { success: true } },
    },
    { signedIn: true },
  );
  return { ...api, credit: () => (credited = true) };
}

const count = (requests: RecordedRequest[], method: string, path: string) =>
  requests.filter((request) => request.method === method && request.path === path).length;

describe('/dashboard after returning from payment', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('records Paid, checks the payment once, refreshes the user every 4 s for 12 s, then shows the purchase', async () => {
    const { client, requests, credit } = paidUserApi();
    renderAt(mfeRouteTree(routes), '/dashboard?payment=success&session_id=cs_test_42', client);
    await settle();

    expect(screen.getByRole('heading', { level: 1, name: `Welcome back, ${TEST_USER.name}` })).toBeInTheDocument();
    const paidEvents = requests.filter((request) => request.path === '/pst');
    expect(paidEvents.map((request) => request.json)).toEqual([{ en: 'Paid', do: { session_id: 'cs_test_42' } }]);
    expect(requests.filter((request) => request.path === '/payments/check-success').map((r) => r.json)).toEqual([
      { sessionId: 'cs_test_42' },
    ]);
    // The first check, plus the refresh once the payment check answered.
    const checksAtReturn = count(requests, 'GET', '/auth/me');
    expect(checksAtReturn).toBe(2);
    expect(within(screen.getByRole('list', { name: 'Account summary' })).getByText('10')).toBeInTheDocument();
    expect(screen.queryByText(PURCHASE.description)).not.toBeInTheDocument();

    // The webhook lands; the next refresh picks up the balance and the credit log follows it.
    credit();
    await elapse(PAYMENT_REFRESH_INTERVAL_MS);
    expect(count(requests, 'GET', '/auth/me')).toBe(checksAtReturn + 1);
    expect(within(screen.getByRole('list', { name: 'Account summary' })).getByText('60')).toBeInTheDocument();
    const purchaseRow = screen.getByText(PURCHASE.description).closest('tr') as HTMLElement;
    expect(
      within(purchaseRow)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([expect.any(String), PURCHASE.description, '—', '+50', '60']);
    const logFetches = count(requests, 'GET', '/credits/log');
    expect(logFetches).toBe(2);

    // Two more refreshes within the 12 s, then none.
    await elapse(PAYMENT_REFRESH_DURATION_MS - PAYMENT_REFRESH_INTERVAL_MS);
    expect(count(requests, 'GET', '/auth/me')).toBe(checksAtReturn + 3);
    await elapse(3 * PAYMENT_REFRESH_INTERVAL_MS);
    expect(count(requests, 'GET', '/auth/me')).toBe(checksAtReturn + 3);
    // The balance did not change again, so neither did the log; the payment was checked only once.
    expect(count(requests, 'GET', '/credits/log')).toBe(logFetches);
    expect(count(requests, 'POST', '/payments/check-success')).toBe(1);
    expect(count(requests, 'POST', '/pst')).toBe(1);
  });

  it('does nothing of that on a plain visit', async () => {
    const { client, requests } = paidUserApi();
    renderAt(mfeRouteTree(routes), '/dashboard', client);
    await settle();
    await screen.findByText(SIGNUP.description);
    await elapse(PAYMENT_REFRESH_DURATION_MS + PAYMENT_REFRESH_INTERVAL_MS);
    expect(count(requests, 'POST', '/payments/check-success')).toBe(0);
    expect(count(requests, 'POST', '/pst')).toBe(0);
    expect(count(requests, 'GET', '/auth/me')).toBe(1);
  });

  it('checks the payment without a session id when the return carries none', async () => {
    const { client, requests } = paidUserApi();
    renderAt(mfeRouteTree(routes), '/dashboard?payment=success', client);
    await settle();
    expect(requests.filter((request) => request.path === '/payments/check-success').map((r) => r.json)).toEqual([{}]);
    expect(requests.filter((request) => request.path === '/pst').map((r) => r.json)).toEqual([{ en: 'Paid', do: {} }]);
  });
});
