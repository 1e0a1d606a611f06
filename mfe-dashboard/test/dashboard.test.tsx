import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mfeRouteTree } from '@productgen/mf-shared';
import { fakeApiClient, NEVER, renderAt, TEST_USER, type Reply } from '@productgen/mf-shared/test-support';
import type { CreditRecord } from '@productgen/platform-client';
import { routes } from '../src/routes';
import { formatLogDate, shortGenerationId, signedAmount } from '../src/dashboard/credit-format';
import { CREDIT_LOG_PAGE_SIZE, FETCH_ERROR_TEXT } from '../src/dashboard/CreditsLog';
import { creationTotals } from '../src/dashboard/StatCards';

const GENERATION_UUID = '5f2b7c1e-8d3a-4e6f-9b0c-1a2d3e4fab12';

function record(index: number, overrides: Partial<CreditRecord> = {}): CreditRecord {
  return {
    id: `entry-${index}`,
    created_at: new Date(Date.UTC(2025, 5, 1, 12, index)).toISOString(),
    description: `Entry ${index}`,
    generation_id: null,
    transaction_type: 'increase',
    amount: 1,
    balance_after: index,
    ...overrides,
  };
}

const SIGNUP = record(0, { description: 'Signup bonus', amount: 10, balance_after: 10 });
const IMAGE = record(1, {
  description: 'Image generation',
  generation_id: GENERATION_UUID,
  transaction_type: 'decrease',
  amount: 1,
  balance_after: 9,
});

const RECORDS = {
  body: {
    records: [
      {
        type: 'single',
        id: GENERATION_UUID,
        status: 'completed',
        category: 'mug',
        num_images: 3,
        created_at: '2025-06-02T09:00:00.000Z',
        thumbnail_url: null,
      },
      {
        type: 'bulk',
        id: '0b7f6a52-3c1e-4f6d-9a8b-2d4c6e8f0a1b',
        status: 'processing',
        category: null,
        num_images: 8,
        created_at: '2025-06-01T09:00:00.000Z',
        thumbnail_url: null,
      },
    ],
  },
};

function renderDashboard(routesByCall: Record<string, Reply | Reply[] | (() => Promise<Reply>)>, path = '/dashboard') {
  const api = fakeApiClient(
    { 'GET /auth/me': { body: { ...TEST_USER, credits: 9 } }, 'GET /records': RECORDS, ...routesByCall },
    { signedIn: true },
  );
  renderAt(mfeRouteTree(routes), path, api.client);
  return api;
}

const creditsLog = () => screen.getByRole('region', { name: 'Credits Log' });
const bodyRows = () => within(creditsLog()).getAllByRole('row').slice(1);
const cellsOf = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

describe('credit log formatting', () => {
  it('keeps the last 4 characters of a generation id, and a dash when there is none', () => {
    expect(shortGenerationId(GENERATION_UUID)).toBe('ab12');
    expect(shortGenerationId('abc')).toBe('abc');
    expect(shortGenerationId(null)).toBe('—');
    expect(shortGenerationId('')).toBe('—');
  });

  it('signs the amount by the transaction type', () => {
    expect(signedAmount({ amount: 50, transaction_type: 'increase' })).toBe('+50');
    expect(signedAmount({ amount: 1, transaction_type: 'decrease' })).toBe('-1');
  });

  it('formats a date and passes an unparsable one through', () => {
    expect(formatLogDate('2025-06-03T10:15:00.000Z')).toMatch(/^Jun \d, 2025, \d{1,2}:\d{2}\s[AP]M$/);
    expect(formatLogDate('not a date')).toBe('not a date');
  });

  it('counts creation sets and their images from the records, ignoring malformed counts', () => {
    expect(creationTotals(RECORDS.body.records)).toEqual({ creationSets: 2, images: 11 });
    expect(creationTotals([{ num_images: 'many' }, null, { num_images: -2 }])).toEqual({ creationSets: 3, images: 0 });
    expect(creationTotals([])).toEqual({ creationSets: 0, images: 0 });
  });
});

describe('/dashboard', () => {
  it('welcomes the user by name and shows the stat cards', async () => {
    renderDashboard({ 'GET /credits/log': { body: { items: [SIGNUP], total: 1 } } });
    expect(await screen.findByRole('heading', { level: 1, name: `Welcome back, ${TEST_USER.name}` })).toBeVisible();
    expect(document.title).toBe('Dashboard | ProductGen');
    const stats = screen.getByRole('list', { name: 'Account summary' });
    await waitFor(() => expect(within(stats).getAllByRole('listitem')).toHaveLength(3));
    expect(
      within(stats)
        .getAllByRole('listitem')
        .map((card) => card.textContent),
    ).toEqual(['Creation Sets2', 'Images11', 'Credits Available9']);
  });

  it('leaves out the creation cards and shows the fetch error in place of Past Creations when the records fail', async () => {
    renderDashboard({
      'GET /records': { status: 503, body: { code: 503, error: 'Service temporarily unavailable' } },
      'GET /credits/log': { body: { items: [SIGNUP], total: 1 } },
    });
    await screen.findByText('Signup bonus');
    const stats = screen.getByRole('list', { name: 'Account summary' });
    expect(
      within(stats)
        .getAllByRole('listitem')
        .map((card) => card.textContent),
    ).toEqual(['Credits Available9']);
    const past = screen.getByRole('region', { name: 'Past Creations' });
    expect(within(past).getByRole('alert')).toHaveTextContent(FETCH_ERROR_TEXT);
    expect(within(past).queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.queryByText(/unavailable/)).not.toBeInTheDocument();
  });

  it('shows the credit log with Date, Description, Generation ID (last 4), Amount and Balance', async () => {
    renderDashboard({ 'GET /credits/log': { body: { items: [IMAGE, SIGNUP], total: 2 } } });
    await screen.findByText('Signup bonus');
    const headers = within(creditsLog())
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers).toEqual(['Date', 'Description', 'Generation ID', 'Amount', 'Balance']);
    expect(bodyRows().map(cellsOf)).toEqual([
      [formatLogDate(IMAGE.created_at), 'Image generation', 'ab12', '-1', '9'],
      [formatLogDate(SIGNUP.created_at), 'Signup bonus', '—', '+10', '10'],
    ]);
    expect(screen.queryByText(GENERATION_UUID)).not.toBeInTheDocument();
    // A single page needs no pager.
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  });

  it('pages the credit log on the server, 10 entries a page', async () => {
    const firstPage = Array.from({ length: 10 }, (_unused, index) => record(25 - index));
    const secondPage = Array.from({ length: 10 }, (_unused, index) => record(15 - index));
    const { client, requests } = fakeApiClient(
      {
        'GET /auth/me': { body: TEST_USER },
        'GET /records': RECORDS,
        'GET /credits/log': [
          { body: { items: firstPage, total: 25 } },
          { body: { items: secondPage, total: 25 } },
          { body: { items: firstPage, total: 25 } },
        ],
      },
      { signedIn: true },
    );
    const creditLog = jest.spyOn(client, 'creditLog');
    renderAt(mfeRouteTree(routes), '/dashboard', client);

    await screen.findByText('Entry 25');
    expect(bodyRows()).toHaveLength(CREDIT_LOG_PAGE_SIZE);
    expect(creditLog).toHaveBeenLastCalledWith(1, CREDIT_LOG_PAGE_SIZE);
    const pager = within(creditsLog()).getByRole('navigation', { name: 'Pagination' });
    expect(pager).toHaveTextContent('Page 1 of 3');
    expect(within(pager).getByRole('button', { name: 'Previous' })).toBeDisabled();

    await userEvent.click(within(pager).getByRole('button', { name: 'Next' }));
    await screen.findByText('Entry 15');
    expect(creditLog).toHaveBeenLastCalledWith(2, CREDIT_LOG_PAGE_SIZE);
    expect(pager).toHaveTextContent('Page 2 of 3');
    expect(screen.queryByText('Entry 25')).not.toBeInTheDocument();

    await userEvent.click(within(pager).getByRole('button', { name: 'Previous' }));
    await screen.findByText('Entry 25');
    expect(creditLog).toHaveBeenLastCalledWith(1, CREDIT_LOG_PAGE_SIZE);
    expect(requests.filter((request) => request.path === '/credits/log')).toHaveLength(3);
  });

  it('shows "An error occurred while fetching data" in red in place of the table', async () => {
    renderDashboard({ 'GET /credits/log': { status: 500, body: { code: 500, error: 'Internal error' } } });
    const error = await screen.findByRole('alert');
    expect(error).toHaveTextContent(FETCH_ERROR_TEXT);
    expect(error).toHaveClass('error');
    expect(within(creditsLog()).queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows a spinner while the credit log loads', async () => {
    renderDashboard({ 'GET /credits/log': NEVER as never });
    expect(await screen.findByRole('status', { name: 'Loading credits log...' })).toBeInTheDocument();
    expect(within(creditsLog()).queryByRole('table')).not.toBeInTheDocument();
  });

  it('asks a signed-out visitor to log in and fetches nothing of theirs', async () => {
    const { client, requests } = fakeApiClient({ 'GET /auth/me': { status: 401 } });
    renderAt(mfeRouteTree(routes), '/dashboard', client);
    expect(await screen.findByText('Please log in to see your dashboard')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Go to Login' }));
    // /login belongs to another app: this one renders nothing there.
    await waitFor(() => expect(screen.queryByText('Please log in to see your dashboard')).not.toBeInTheDocument());
    expect(requests.map((request) => request.path)).toEqual(['/auth/me']);
  });
});
