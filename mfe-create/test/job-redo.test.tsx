import { fireEvent, screen, within } from '@testing-library/react';
import type { BulkJob, Generation } from '@productgen/platform-client';
import { REDO_LABEL } from '../src/job/GenerationCard';
import { CANCEL_REDO, redoLabel } from '../src/job/RedoPanel';
import { CATEGORIES, generatedImage, renderCreate, requestsTo } from './support';

// Redo on the job page: a finished product can be corrected (name, category; the brush is ui-kit's) and made again,
// the price said on the button (free the first time or when the machine flagged it, else the batch's count), and
// the job is fetched again to show the new images.

const JOB = '0d9c1a7e-3b2f-4c5d-8e6f-7a8b9c0d1e2f';
const JOB_PATH = `/image-gen/bulk-job/${JOB}`;

function generation(uuid: string, name: string, status: Generation['metadata']['status']): Generation {
  return {
    id: uuid,
    generation_uuid: uuid,
    created_at: '2026-11-24T10:00:00.000Z',
    images: status === 'completed' ? [generatedImage(`${uuid}-0`)] : [],
    metadata: { category: 'kitchen', num_images: 2, status, error: null },
    original_image_url: `/download/${uuid}/image/-1`,
    original_filename: name,
  };
}

function job(redoFree: boolean, generations = [generation('gen-a', 'mug.jpg', 'completed')]): BulkJob {
  return {
    bulk_job_uuid: JOB,
    status: 'completed',
    generations_done: generations.length,
    generations_total: generations.length,
    created_at: '2026-11-24T10:00:00.000Z',
    thumbnails: [],
    has_watermark: false,
    generations,
    products: generations.map((item, index) => ({
      index,
      generation_uuid: item.generation_uuid,
      filename: item.original_filename ?? '',
      object: 'coffee mug',
      redo_free: redoFree,
      redo_credits: redoFree ? 0 : 2,
    })),
  };
}

function renderJob(jobs: BulkJob[]) {
  return renderCreate({
    path: `/job/${JOB}`,
    api: {
      [`GET ${JOB_PATH}`]: jobs.map((body) => ({ body })),
      'GET /image-gen/categories': { body: CATEGORIES },
      'GET /image-gen/cutout/gen-a': {
        status: 404,
        body: { code: 404, error: 'This photo has no cut-out to correct.' },
      },
      [`POST ${JOB_PATH}/products/0/redo`]: { body: { index: 0, generation_uuid: 'gen-b', credits_charged: 0 } },
    },
  });
}

test('a finished product is corrected and redone for free; the job is fetched again', async () => {
  const { requests } = renderJob([job(true), job(false, [generation('gen-b', 'mug.jpg', 'processing')])]);
  const card = await screen.findByRole('article', { name: 'mug.jpg' });
  fireEvent.click(within(card).getByRole('button', { name: REDO_LABEL }));
  const editor = await screen.findByTestId('product-editor');
  expect(within(editor).getByLabelText('Product name')).toHaveValue('coffee mug');
  await within(editor).findByRole('option', { name: 'Fashion' });
  fireEvent.change(within(editor).getByLabelText('Category'), { target: { value: 'fashion' } });
  fireEvent.click(within(editor).getByRole('button', { name: redoLabel(true, 0) }));
  expect(await screen.findByTestId('generation-processing')).toBeInTheDocument();
  expect(screen.queryByTestId('product-editor')).toBeNull();
  expect(requestsTo(requests, 'POST', `${JOB_PATH}/products/0/redo`).map((request) => request.json)).toEqual([
    { category: 'fashion' },
  ]);
});

test('a further redo says what it costs; Cancel closes the editor and sends nothing', async () => {
  const { requests } = renderJob([job(false)]);
  fireEvent.click(await screen.findByRole('button', { name: REDO_LABEL }));
  const editor = await screen.findByTestId('product-editor');
  expect(within(editor).getByRole('button', { name: 'Redo (uses 2 credits)' })).toBeEnabled();
  fireEvent.click(within(editor).getByRole('button', { name: CANCEL_REDO }));
  expect(screen.queryByTestId('product-editor')).toBeNull();
  expect(requestsTo(requests, 'POST', `${JOB_PATH}/products/0/redo`)).toHaveLength(0);
});

test('no redo while a product is still being made', async () => {
  renderJob([{ ...job(true, [generation('gen-a', 'mug.jpg', 'processing')]), status: 'processing' }]);
  await screen.findByTestId('generation-processing');
  expect(screen.queryByRole('button', { name: REDO_LABEL })).toBeNull();
});
