import { act, fireEvent, screen, within } from '@testing-library/react';
import { NEVER, TEST_API } from '@productgen/mf-shared/test-support';
import type { BulkJob, Generation } from '@productgen/platform-client';
import { JOB_POLL_INTERVAL_MS } from '../src/job/jobStatus';
import { advance, generatedImage, renderCreate, requestsTo, testUser } from './support';

const JOB = '0d9c1a7e-3b2f-4c5d-8e6f-7a8b9c0d1e2f';
const JOB_PATH = `/image-gen/bulk-job/${JOB}`;

function generation(
  name: string,
  images: Generation['images'],
  metadata: Partial<Generation['metadata']> = {},
): Generation {
  return {
    id: `id-${name}`,
    generation_uuid: `gen-${name}`,
    created_at: '2026-11-24T10:00:00.000Z',
    images,
    metadata: { category: 'kitchen', num_images: 2, status: 'completed', error: null, ...metadata },
    original_image_url: `/files/original-${name}`,
    original_filename: name,
  };
}

const KETTLE = generation('kettle.jpg', [generatedImage('k1'), generatedImage('k2', false)]);
const LAMP = generation('lamp.png', [], { status: 'failed', error: 'No product was found in this photo.' });
const VASE = generation('vase.webp', [], { status: 'processing' });
const CHAIR = generation('chair.jpg', [generatedImage('c1'), generatedImage('c2')]);

function job(overrides: Partial<BulkJob> = {}): BulkJob {
  return {
    bulk_job_uuid: JOB,
    status: 'processing',
    generations_done: 2,
    generations_total: 3,
    created_at: '2026-11-24T10:00:00.000Z',
    thumbnails: [],
    has_watermark: false,
    generations: [KETTLE, LAMP, VASE],
    ...overrides,
  };
}

function renderJob(api: NonNullable<Parameters<typeof renderCreate>[0]>['api'], user = testUser()) {
  return renderCreate({ path: `/job/${JOB}`, user, api });
}

/** Lets the first fetch (sent at once) and its answer settle. */
async function loaded() {
  await advance(0);
  await advance(0);
}

beforeEach(() => {
  jest.useFakeTimers();
});

afterEach(() => {
  jest.useRealTimers();
});

describe('job page: loading and access', () => {
  it('sends a visitor to / once the session check has answered', async () => {
    renderCreate({ path: `/job/${JOB}`, user: null });
    expect(await screen.findByRole('heading', { name: 'Landing page' })).toBeInTheDocument();
  });

  it('says "Loading job status..." until the job arrives', async () => {
    renderJob({ [`GET ${JOB_PATH}`]: NEVER });
    expect(await screen.findByText('Loading job status...')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Batch Job' })).toBeInTheDocument();
    // Still so once the session check has answered.
    await loaded();
    expect(screen.getByText('Loading job status...')).toBeInTheDocument();
  });

  it('says "Job not found." for an id the API does not know (or another user\'s)', async () => {
    renderJob({ [`GET ${JOB_PATH}`]: { status: 404, body: { code: 404, error: 'Bulk job not found' } } });
    expect(await screen.findByText('Job not found.')).toBeInTheDocument();
  });

  it('says "Failed to fetch job status." when the API fails', async () => {
    renderJob({ [`GET ${JOB_PATH}`]: { status: 503 } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch job status.');
  });
});

describe('job page: the job', () => {
  it('shows status, progress done/total with a bar, created time and Download All', async () => {
    renderJob({ [`GET ${JOB_PATH}`]: { body: job() } });
    await loaded();
    expect(await screen.findByTestId('job-status')).toHaveTextContent('Processing');
    expect(screen.getByTestId('job-progress')).toHaveTextContent('2/3');
    expect(screen.getByRole('progressbar', { name: 'Products done' })).toHaveAttribute('aria-valuenow', '2');
    expect(screen.getByTestId('job-created')).toHaveTextContent(new Date('2026-11-24T10:00:00.000Z').toLocaleString());
    expect(screen.getByRole('link', { name: 'Download All' })).toHaveAttribute(
      'href',
      `${TEST_API}/download/bulk/${JOB}`,
    );
  });

  it('says the products are queued while a running job lists none yet', async () => {
    renderJob({ [`GET ${JOB_PATH}`]: { body: job({ status: 'pending', generations_done: 0, generations: [] }) } });
    await loaded();
    expect(await screen.findByText(/Your products are queued/)).toBeInTheDocument();
  });

  it.each([
    ['pending', 'Pending', true],
    ['completed', 'Completed', false],
    ['failed', 'Failed', false],
    ['paused', 'Unknown', true],
  ])('shows the status %s as "%s" (bar: %s)', async (status, label, bar) => {
    // 'paused' stands for a status this page does not know yet.
    renderJob({ [`GET ${JOB_PATH}`]: { body: job({ status: status as BulkJob['status'] }) } });
    await loaded();
    expect(await screen.findByTestId('job-status')).toHaveTextContent(label);
    expect(screen.queryAllByRole('progressbar', { name: 'Products done' })).toHaveLength(bar ? 1 : 0);
  });

  it('shows each product with its original and created images, Failed with its error, or Processing', async () => {
    renderJob({ [`GET ${JOB_PATH}`]: { body: job() } });
    await loaded();
    const kettle = within(await screen.findByRole('article', { name: 'kettle.jpg' }));
    expect(kettle.getByRole('img', { name: 'kettle.jpg, original' })).toHaveAttribute(
      'src',
      `${TEST_API}/files/original-kettle.jpg`,
    );
    expect(kettle.getAllByRole('button', { name: /^View kettle\.jpg, image \d$/ })).toHaveLength(2);
    // Only the image whose fixes are still running has the spinner.
    expect(kettle.getAllByTestId('fixes-overlay')).toHaveLength(1);
    expect(within(kettle.getByRole('button', { name: 'View kettle.jpg, image 2' })).getByTestId('fixes-overlay'));

    const lamp = within(screen.getByRole('article', { name: 'lamp.png' }));
    expect(lamp.getByTestId('generation-failed')).toHaveTextContent('FailedNo product was found in this photo.');
    const vase = within(screen.getByRole('article', { name: 'vase.webp' }));
    expect(vase.getByTestId('generation-processing')).toHaveTextContent('Processing');
  });

  it('polls every 10 s; once done equals total it refetches the balance and polls on only for images still finishing', async () => {
    const { requests } = renderJob({
      [`GET ${JOB_PATH}`]: [
        { body: job({ generations_done: 0 }) },
        { body: job({ generations_done: 2 }) },
        { body: job({ generations_done: 3, generations: [KETTLE, LAMP, CHAIR] }) },
      ],
    });
    await loaded();
    expect(await screen.findByTestId('job-progress')).toHaveTextContent('0/3');
    const polls = () => requestsTo(requests, 'GET', JOB_PATH).length;
    const userFetches = () => requestsTo(requests, 'GET', '/auth/me').length;
    expect(polls()).toBe(1);

    await advance(JOB_POLL_INTERVAL_MS - 1);
    expect(polls()).toBe(1);
    await advance(1);
    expect(polls()).toBe(2);
    expect(screen.getByTestId('job-progress')).toHaveTextContent('2/3');

    // Done equals total: the job has finished (the balance is refetched), but the kettle's second image is still
    // being finished, so the page polls on for it; the bar stays while the status is not completed or failed.
    const before = userFetches();
    await advance(JOB_POLL_INTERVAL_MS);
    expect(polls()).toBe(3);
    expect(screen.getByTestId('job-progress')).toHaveTextContent('3/3');
    expect(screen.getByRole('progressbar', { name: 'Products done' })).toBeInTheDocument();
    expect(userFetches()).toBeGreaterThan(before);
    await advance(JOB_POLL_INTERVAL_MS);
    expect(polls()).toBe(4);
  });

  it('stops polling once done equals total and no image is still finishing', async () => {
    const settled = job({ status: 'completed', generations_done: 2, generations_total: 2, generations: [CHAIR, LAMP] });
    const { requests } = renderJob({
      [`GET ${JOB_PATH}`]: [{ body: job({ generations_done: 1, generations_total: 2 }) }, { body: settled }],
    });
    await loaded();
    await advance(JOB_POLL_INTERVAL_MS);
    expect(screen.getByTestId('job-status')).toHaveTextContent('Completed');
    await advance(JOB_POLL_INTERVAL_MS * 5);
    expect(requestsTo(requests, 'GET', JOB_PATH)).toHaveLength(2);
    expect(screen.queryByRole('progressbar', { name: 'Products done' })).not.toBeInTheDocument();
  });

  it('stops polling on an error and says "Failed to fetch job status." above the last answer', async () => {
    const { requests } = renderJob({ [`GET ${JOB_PATH}`]: [{ body: job() }, { status: 502 }] });
    await loaded();
    await advance(JOB_POLL_INTERVAL_MS);
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to fetch job status.');
    expect(screen.getByTestId('job-progress')).toHaveTextContent('2/3');
    await advance(JOB_POLL_INTERVAL_MS * 3);
    expect(requestsTo(requests, 'GET', JOB_PATH)).toHaveLength(2);
  });
});

describe('job page: notices', () => {
  const finished = job({ status: 'completed', generations_done: 2, generations_total: 2, generations: [CHAIR, LAMP] });

  it('shows the watermark notice for a watermarked job', async () => {
    renderJob({ [`GET ${JOB_PATH}`]: { body: job({ has_watermark: true }) } });
    await loaded();
    expect(await screen.findByRole('note')).toHaveTextContent(/carry a watermark/);
  });

  it('shows the site-URL tip once the job is finished, for a user whose flag is set; dismissal records enter_site_url', async () => {
    const { requests } = renderJob(
      {
        [`GET ${JOB_PATH}`]: { body: finished },
        'POST /user/settings/close-tooltip': { body: { success: true } },
      },
      testUser({ flags: { showSiteUrlTooltip: true } }),
    );
    await loaded();
    const tip = await screen.findByRole('note');
    expect(tip).toHaveTextContent(/add your website URL in Settings/);
    fireEvent.click(within(tip).getByRole('button', { name: 'Dismiss tip' }));
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
    await advance(0);
    expect(requestsTo(requests, 'POST', '/user/settings/close-tooltip')[0]?.json).toEqual({ name: 'enter_site_url' });
  });

  it('keeps the tip back while the job runs, and from users without the flag', async () => {
    renderJob({ [`GET ${JOB_PATH}`]: { body: job() } }, testUser({ flags: { showSiteUrlTooltip: true } }));
    await loaded();
    await screen.findByTestId('job-status');
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });
});

describe('job page: the full-size viewer', () => {
  const twoProducts = job({ generations: [KETTLE, LAMP, CHAIR] });

  function viewer() {
    return screen.getByRole('dialog');
  }
  function shownImage() {
    return within(viewer()).getByRole('img', { name: /image \d$/ });
  }

  it('opens at the chosen image and moves through every product with the arrow keys; Escape closes it', async () => {
    renderJob({ [`GET ${JOB_PATH}`]: { body: twoProducts } });
    await loaded();
    fireEvent.click(await screen.findByRole('button', { name: 'View kettle.jpg, image 2' }));
    expect(viewer()).toHaveAccessibleName('kettle.jpg, image 2');
    expect(shownImage()).toHaveAttribute('src', `${TEST_API}/files/k2.jpg`);
    expect(within(viewer()).getByTestId('fixes-overlay')).toBeInTheDocument();
    expect(within(viewer()).getByRole('link', { name: 'Download' })).toHaveAttribute(
      'href',
      `${TEST_API}/download/gen-kettle.jpg/image/1`,
    );
    expect(within(viewer()).getByText('2 / 4')).toBeInTheDocument();

    fireEvent.keyDown(viewer(), { key: 'ArrowRight' });
    expect(viewer()).toHaveAccessibleName('chair.jpg, image 1');
    fireEvent.keyDown(document.body, { key: 'ArrowRight' });
    fireEvent.keyDown(document.body, { key: 'ArrowRight' });
    expect(viewer()).toHaveAccessibleName('chair.jpg, image 2');
    expect(within(viewer()).getByRole('button', { name: 'Next' })).toBeDisabled();
    fireEvent.keyDown(viewer(), { key: 'ArrowLeft' });
    expect(viewer()).toHaveAccessibleName('chair.jpg, image 1');

    fireEvent.keyDown(viewer(), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('moves on a swipe of 50 px or more, not on a shorter one; Previous and Next work too', async () => {
    renderJob({ [`GET ${JOB_PATH}`]: { body: twoProducts } });
    await loaded();
    fireEvent.click(await screen.findByRole('button', { name: 'View kettle.jpg, image 1' }));
    const stage = within(viewer()).getByTestId('viewer-stage');
    const swipe = (from: number, to: number) => {
      fireEvent.touchStart(stage, { touches: [{ clientX: from }] });
      fireEvent.touchEnd(stage, { changedTouches: [{ clientX: to }] });
    };
    swipe(200, 170);
    expect(viewer()).toHaveAccessibleName('kettle.jpg, image 1');
    swipe(200, 100);
    expect(viewer()).toHaveAccessibleName('kettle.jpg, image 2');
    swipe(100, 200);
    expect(viewer()).toHaveAccessibleName('kettle.jpg, image 1');
    expect(within(viewer()).getByRole('button', { name: 'Previous' })).toBeDisabled();
    fireEvent.click(within(viewer()).getByRole('button', { name: 'Next' }));
    expect(viewer()).toHaveAccessibleName('kettle.jpg, image 2');
    await act(async () => {
      fireEvent.click(within(viewer()).getByRole('button', { name: 'Close' }));
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
