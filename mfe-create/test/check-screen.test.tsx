import { fireEvent, screen, within } from '@testing-library/react';
import axe from 'axe-core';
import type { BulkCheckProduct, BulkJob } from '@productgen/platform-client';
import {
  CHECK_TITLE,
  LOOKS_RIGHT,
  REASON_TEXTS,
  REMOVE_PRODUCT,
  RENDER_ANYWAY,
  countLeft,
} from '../src/job/CheckScreen';
import { CATEGORIES, renderCreate, requestsTo } from './support';

// The check screen on the job page: the products the machine is unsure of, one at a time, with their photo, name
// and category; "Looks right" (with any change made here as a fix), "Render anyway" and removal reach bulk's check
// routes, and the count left and the job's counts follow.

const JOB = '0d9c1a7e-3b2f-4c5d-8e6f-7a8b9c0d1e2f';
const JOB_PATH = `/image-gen/bulk-job/${JOB}`;

function waiting(index: number, filename: string, reasons: BulkCheckProduct['reasons']): BulkCheckProduct {
  return {
    index,
    generation_uuid: `gen-${index}`,
    filename,
    object: 'cushion',
    category: 'kitchen',
    reasons,
    original_image_url: `/download/gen-${index}/image/-1`,
    render_after: '2026-12-01T10:00:00.000Z',
  };
}

const CUSHION = waiting(1, 'cushion.jpg', ['cutout']);
const KEYBOARD = waiting(2, 'keyboard.jpg', ['category']);
const LAMP = waiting(3, 'lamp.jpg', ['cutout', 'category']);

function job(waitingForCheck: number): BulkJob {
  return {
    bulk_job_uuid: JOB,
    status: 'processing',
    generations_done: 1,
    generations_total: 4,
    created_at: '2026-11-24T10:00:00.000Z',
    thumbnails: [],
    has_watermark: false,
    counts: { done: 1, waiting_for_check: waitingForCheck, rendering: 3 - waitingForCheck, failed: 0 },
    generations: [],
  };
}

function renderChecks(lists: BulkCheckProduct[][], decide: { status?: number; body?: unknown } = {}) {
  return renderCreate({
    path: `/job/${JOB}`,
    api: {
      [`GET ${JOB_PATH}`]: lists.map((list) => ({ body: job(list.length) })),
      [`GET ${JOB_PATH}/checks`]: lists.map((products) => ({ body: { products } })),
      'GET /image-gen/categories': { body: CATEGORIES },
      // No cut-out to brush here (the brush is ui-kit's, tested there): the photo, name and category remain.
      'GET /image-gen/cutout/gen-1': {
        status: 404,
        body: { code: 404, error: 'This photo has no cut-out to correct.' },
      },
      'GET /image-gen/cutout/gen-2': {
        status: 404,
        body: { code: 404, error: 'This photo has no cut-out to correct.' },
      },
      'GET /image-gen/cutout/gen-3': {
        status: 404,
        body: { code: 404, error: 'This photo has no cut-out to correct.' },
      },
      [`POST ${JOB_PATH}/checks/1`]: { body: { index: 1, state: 'rendering', credits_returned: 0 }, ...decide },
      [`POST ${JOB_PATH}/checks/2`]: { body: { index: 2, state: 'rendering', credits_returned: 0 } },
      [`DELETE ${JOB_PATH}/products/3`]: { body: { index: 3, state: 'removed', credits_returned: 2 } },
    },
  });
}

const checkSection = async () => screen.findByRole('region', { name: CHECK_TITLE });

test('the waiting products one at a time: photo, reasons, name, category and the count left', async () => {
  renderChecks([[CUSHION, KEYBOARD, LAMP]]);
  const section = await checkSection();
  expect(await within(section).findByText(countLeft(3))).toBeInTheDocument();
  expect(within(section).getByText('cushion.jpg')).toBeInTheDocument();
  expect(within(section).getByText(REASON_TEXTS.cutout)).toBeInTheDocument();
  expect(within(section).getByRole('img', { name: 'cushion.jpg, as uploaded' })).toBeInTheDocument();
  expect(within(section).getByLabelText('Product name')).toHaveValue('cushion');
  expect(screen.getByTestId('job-waiting-for-check')).toHaveTextContent('3');
  for (const name of [LOOKS_RIGHT, RENDER_ANYWAY, REMOVE_PRODUCT]) {
    expect(within(section).getByRole('button', { name })).toBeEnabled();
  }
});

test('"Looks right" confirms as analysed; the next product follows and the count goes down', async () => {
  const { requests } = renderChecks([[CUSHION, KEYBOARD], [KEYBOARD]]);
  const section = await checkSection();
  fireEvent.click(await within(section).findByRole('button', { name: LOOKS_RIGHT }));
  expect(await within(section).findByText('keyboard.jpg')).toBeInTheDocument();
  expect(within(section).getByText(countLeft(1))).toBeInTheDocument();
  expect(requestsTo(requests, 'POST', `${JOB_PATH}/checks/1`).map((request) => request.json)).toEqual([
    { action: 'looks_right' },
  ]);
});

test('a name changed here makes "Looks right" a fix; "Render anyway" renders as it is; removal', async () => {
  const { requests } = renderChecks([[CUSHION, KEYBOARD, LAMP], [KEYBOARD, LAMP], [LAMP], []]);
  const section = await checkSection();
  fireEvent.change(await within(section).findByLabelText('Product name'), { target: { value: 'sofa cushion' } });
  fireEvent.click(within(section).getByRole('button', { name: LOOKS_RIGHT }));
  expect(await within(section).findByText('keyboard.jpg')).toBeInTheDocument();
  fireEvent.click(within(section).getByRole('button', { name: RENDER_ANYWAY }));
  expect(await within(section).findByText('lamp.jpg')).toBeInTheDocument();
  fireEvent.click(within(section).getByRole('button', { name: REMOVE_PRODUCT }));
  expect(await within(section).findByText('Every product is checked.')).toBeInTheDocument();
  expect(requestsTo(requests, 'POST', `${JOB_PATH}/checks/1`)[0]?.json).toEqual({
    action: 'fix',
    object: 'sofa cushion',
  });
  expect(requestsTo(requests, 'POST', `${JOB_PATH}/checks/2`)[0]?.json).toEqual({ action: 'render_anyway' });
  expect(requestsTo(requests, 'DELETE', `${JOB_PATH}/products/3`)).toHaveLength(1);
});

test("the API's refusal is shown in its words and the product stays to check", async () => {
  renderChecks([[CUSHION]], {
    status: 409,
    body: { code: 409, error: 'This product is no longer waiting for your check.' },
  });
  const section = await checkSection();
  fireEvent.click(await within(section).findByRole('button', { name: LOOKS_RIGHT }));
  expect(await within(section).findByRole('alert')).toHaveTextContent(
    'This product is no longer waiting for your check.',
  );
  expect(within(section).getByText('cushion.jpg')).toBeInTheDocument();
  expect(within(section).getByRole('button', { name: LOOKS_RIGHT })).toBeEnabled();
});

test('axe-core finds no violation on the check screen (contrast is left to the Chromium checks: jsdom cannot paint)', async () => {
  renderChecks([[CUSHION, KEYBOARD]]);
  const section = await checkSection();
  await within(section).findByText(countLeft(2));
  await within(section).findByRole('option', { name: 'Fashion' });
  const { violations } = await axe.run(section, { rules: { 'color-contrast': { enabled: false } } });
  expect(
    violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(', ')}`),
  ).toEqual([]);
});
