import { act, screen, within } from '@testing-library/react';
import { mfeRouteTree } from '@productgen/mf-shared';
import { fakeApiClient, renderAt, TEST_API, TEST_USER, type FakeRoute } from '@productgen/mf-shared/test-support';
import type { BulkJobSummary } from '@productgen/platform-client';
import { routes } from '../src/routes';
import { JOBS_POLL_INTERVAL_MS, NEEDS_CHECK_LABEL } from '../src/dashboard/BatchJobsInProgress';

const JOBS_PATH = '/image-gen/bulk-jobs';
const RUNNING = '0b7f6a52-3c1e-4f6d-9a8b-2d4c6e8f0a1b';
const QUEUED = '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f';

function job(overrides: Partial<BulkJobSummary>): BulkJobSummary {
  return {
    bulk_job_uuid: RUNNING,
    status: 'processing',
    generations_done: 2,
    generations_total: 5,
    created_at: '2025-06-02T09:00:00.000Z',
    thumbnails: ['/images/a.webp', '/images/b.webp', '/images/c.webp', '/images/d.webp'],
    has_watermark: false,
    ...overrides,
  };
}

async function advance(ms: number) {
  await act(async () => {
    await jest.advanceTimersByTimeAsync(ms);
  });
}

function renderDashboard(jobs: FakeRoute) {
  const api = fakeApiClient(
    {
      'GET /auth/me': { body: { ...TEST_USER, credits: 9 } },
      'GET /records': { body: { records: [] } },
      'GET /credits/log': { body: { items: [], total: 0 } },
      [`GET ${JOBS_PATH}`]: jobs,
    },
    { signedIn: true },
  );
  renderAt(mfeRouteTree(routes), '/dashboard', api.client);
  const polls = () => api.requests.filter((request) => request.method === 'GET' && request.path === JOBS_PATH);
  return { ...api, polls };
}

const section = () => screen.findByRole('region', { name: 'Batch Jobs In Progress' });

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('Batch Jobs In Progress', () => {
  it('asks for the pending and processing jobs and shows a card per job with up to 3 thumbnails, progress and its job page link', async () => {
    const { polls } = renderDashboard({
      body: { jobs: [job({}), job({ bulk_job_uuid: QUEUED, status: 'pending', generations_done: 0, thumbnails: [] })] },
    });
    const jobs = await section();
    expect(polls()[0]?.url.searchParams.get('statuses')).toBe('pending,processing');
    const cards = within(jobs).getAllByRole('listitem');
    expect(cards).toHaveLength(2);

    const [running, queued] = cards as [HTMLElement, HTMLElement];
    const images = running.querySelectorAll('img');
    expect([...images].map((image) => image.getAttribute('src'))).toEqual([
      `${TEST_API}/images/a.webp`,
      `${TEST_API}/images/b.webp`,
      `${TEST_API}/images/c.webp`,
    ]);
    expect(within(running).getByRole('link')).toHaveAttribute('href', `/job/${RUNNING}`);
    expect(within(running).getByText('Processing')).toBeVisible();
    const bar = within(running).getByRole('progressbar');
    expect(bar).toHaveAttribute('aria-valuenow', '2');
    expect(bar).toHaveAttribute('aria-valuemax', '5');
    expect(bar).toHaveAttribute('aria-valuetext', '2 / 5');

    expect(queued.querySelectorAll('img')).toHaveLength(0);
    expect(within(queued).getByRole('link')).toHaveAttribute('href', `/job/${QUEUED}`);
    expect(within(queued).getByText('Pending')).toBeVisible();
  });

  it('refreshes while a job runs and stops polling once none is left, removing the section', async () => {
    const { polls } = renderDashboard([
      { body: { jobs: [job({})] } },
      { body: { jobs: [job({ generations_done: 4 })] } },
      { body: { jobs: [] } },
    ]);
    const jobs = await section();
    expect(polls()).toHaveLength(1);
    await advance(JOBS_POLL_INTERVAL_MS - 1);
    expect(polls()).toHaveLength(1);
    await advance(1);
    expect(polls()).toHaveLength(2);
    expect(within(jobs).getByRole('progressbar')).toHaveAttribute('aria-valuetext', '4 / 5');
    await advance(JOBS_POLL_INTERVAL_MS);
    expect(polls()).toHaveLength(3);
    expect(screen.queryByRole('region', { name: 'Batch Jobs In Progress' })).not.toBeInTheDocument();
    await advance(JOBS_POLL_INTERVAL_MS * 5);
    expect(polls()).toHaveLength(3);
  });

  it('refetches the creations when the last running job finishes, so its row shows the outcome', async () => {
    const { requests } = renderDashboard([{ body: { jobs: [job({})] } }, { body: { jobs: [] } }]);
    await section();
    const recordFetches = () => requests.filter((request) => request.path === '/records').length;
    const before = recordFetches();
    await advance(JOBS_POLL_INTERVAL_MS);
    expect(recordFetches()).toBe(before + 1);
  });

  it('a job with products waiting for check says how many and links to its check screen', async () => {
    renderDashboard({
      body: {
        jobs: [
          job({ counts: { done: 1, waiting_for_check: 2, rendering: 2, failed: 0 } }),
          job({ bulk_job_uuid: QUEUED }),
        ],
      },
    });
    const cards = within(await section()).getAllByRole('listitem');
    const check = within(cards[0]!).getByRole('link', { name: `${NEEDS_CHECK_LABEL}: 2 products` });
    expect(check).toHaveAttribute('href', `/job/${RUNNING}#check`);
    // Without products waiting (or counts), no such link.
    expect(within(cards[1]!).queryByRole('link', { name: new RegExp(NEEDS_CHECK_LABEL) })).toBeNull();
  });

  it('shows nothing and does not poll when no job runs or the list cannot be fetched', async () => {
    const { polls } = renderDashboard({ status: 503, body: { code: 503, error: 'Service temporarily unavailable' } });
    await screen.findByRole('heading', { level: 1 });
    await advance(JOBS_POLL_INTERVAL_MS * 2);
    expect(polls()).toHaveLength(1);
    expect(screen.queryByRole('region', { name: 'Batch Jobs In Progress' })).not.toBeInTheDocument();
    expect(screen.queryByText(/unavailable/)).not.toBeInTheDocument();
  });
});
