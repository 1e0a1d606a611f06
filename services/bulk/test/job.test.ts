import type { Generation } from '@productgen/contracts';
import type { GenerationProgressDocument, JobDocument } from '../src/data/models';
import {
  computeProgress,
  downloadEntries,
  NOTHING_MATCHED_MESSAGE,
  publicStatus,
  type JobGeneration,
} from '../src/domain/job';

const uuid = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;

function job(
  states: JobDocument['products'][number]['state'][],
  stage: JobDocument['stage'] = 'tracking',
  announced: Record<string, GenerationProgressDocument> = {},
): JobDocument {
  return {
    uuid: uuid(9),
    user_id: 'u1',
    stage,
    images_per_product: 2,
    presets: [],
    watermark: true,
    check_uncertain: true,
    upload_key: null,
    products: states.map((state, index) => ({
      index,
      entry_index: index,
      name: `p${index}.jpg`,
      generation_uuid: uuid(index),
      state,
      error: null,
    })),
    generation_progress: announced,
    generations_total: states.length,
    generations_done: 0,
    counts: null,
    thumbnails: [],
    error: null,
    lease_until: null,
    finished_at: null,
    created_at: new Date('2026-01-01T00:00:00Z'),
    updated_at: new Date('2026-01-01T00:00:00Z'),
  };
}

function generation(n: number, status: Generation['metadata']['status'], fixed: boolean[]): JobGeneration {
  return {
    id: uuid(n),
    generation_uuid: uuid(n),
    created_at: '2026-01-01T00:00:00.000Z',
    images: fixed.map((done, index) => ({
      id: `${uuid(n)}-${index}`,
      input_url: `/download/${uuid(n)}/image/-1`,
      output_url: `/download/${uuid(n)}/image/${index}`,
      metadata: { fixes_done: [done, done, true] },
    })),
    metadata: { category: 'electronics', num_images: fixed.length, status, error: null },
    original_image_url: `/download/${uuid(n)}/image/-1`,
    original_filename: `p${n}.jpg`,
    original_extension: 'jpg',
    downloads: {
      original: { bucket: 'generation-images', key: `originals/${uuid(n)}.jpg` },
      images: fixed.map((_done, index) => ({
        index,
        bucket: 'generation-images',
        key: `final/${uuid(n)}/${index}.jpg`,
      })),
    },
  };
}

/** What generation's messages said of generation n. */
const announced = (n: number, images: number[], outcome: GenerationProgressDocument['outcome'] = null) => ({
  [uuid(n)]: { images, outcome },
});

test('progress counts settled generations and products skipped or refused; thumbnails are finished images', () => {
  const progress = computeProgress(
    job(['handed', 'handed', 'skipped'], 'tracking', {
      ...announced(0, [1, 0], 'completed'),
      ...announced(1, [0]),
    }),
  );
  expect(progress.generationsDone).toBe(2);
  expect(progress.counts).toEqual({ done: 2, waiting_for_check: 0, rendering: 1, failed: 0 });
  expect(progress.thumbnails).toEqual([
    `/download/${uuid(0)}/image/0?v=final`,
    `/download/${uuid(0)}/image/1?v=final`,
    `/download/${uuid(1)}/image/0?v=final`,
  ]);
  expect(progress.outcome).toBeUndefined();
});

test('the job finishes only once every product is done and all were handed over', () => {
  const done = { ...announced(0, [0], 'completed'), ...announced(1, [], 'failed') };
  expect(computeProgress(job(['handed', 'handed'], 'tracking', done)).outcome).toEqual({
    stage: 'completed',
    error: null,
  });
  expect(computeProgress(job(['handed', 'handed'], 'handing_over', done)).outcome).toBeUndefined();
  expect(computeProgress(job(['skipped', 'skipped'])).outcome).toEqual({
    stage: 'failed',
    error: NOTHING_MATCHED_MESSAGE,
  });
});

test("messages of a generation the product no longer points at (a redo replaced it) are not the product's", () => {
  const redone = job(['handed'], 'tracking', { ...announced(5, [0, 1], 'completed'), ...announced(0, [0]) });
  const progress = computeProgress(redone);
  expect(progress.counts).toEqual({ done: 0, waiting_for_check: 0, rendering: 1, failed: 0 });
  expect(progress.thumbnails).toEqual([`/download/${uuid(0)}/image/0?v=final`]);
});

test('public status: pending until something is done, then processing, then the outcome', () => {
  expect(publicStatus({ stage: 'reserving', generations_done: 0, generations_total: 2 })).toBe('pending');
  expect(publicStatus({ stage: 'handing_over', generations_done: 1, generations_total: 2 })).toBe('processing');
  expect(publicStatus({ stage: 'tracking', generations_done: 0, generations_total: 2 })).toBe('processing');
  expect(publicStatus({ stage: 'completed', generations_done: 2, generations_total: 2 })).toBe('completed');
  expect(publicStatus({ stage: 'failed', generations_done: 2, generations_total: 2 })).toBe('failed');
});

test('public status: a finished job whose product a redo took back is processing, not finished short of its total', () => {
  expect(publicStatus({ stage: 'completed', generations_done: 1, generations_total: 2 })).toBe('processing');
  expect(publicStatus({ stage: 'failed', generations_done: 1, generations_total: 2 })).toBe('processing');
});

test('Download All: a folder per product with images numbered from 1, originals only when asked', () => {
  const generations = [generation(1, 'completed', [true, true]), generation(0, 'completed', [true])];
  expect(downloadEntries(job(['handed', 'handed']), generations, false).map((entry) => entry.path)).toEqual([
    'p0/1.jpg',
    'p1/1.jpg',
    'p1/2.jpg',
  ]);
  expect(downloadEntries(job(['handed', 'handed']), generations, true)[0]).toEqual({
    path: 'p0/original.jpg',
    generationUuid: uuid(0),
    source: { bucket: 'generation-images', key: `originals/${uuid(0)}.jpg` },
  });
});

test('Download All holds the objects generation lists as its downloads: an image it does not list is left out', () => {
  const withdrawn = generation(0, 'completed', [true, true, true]);
  // Generation lists no download of a refunded image (nor of a free user's unwatermarked base): here image 1.
  withdrawn.downloads.images = withdrawn.downloads.images.filter((image) => image.index !== 1);
  expect(downloadEntries(job(['handed']), [withdrawn], false)).toEqual([
    {
      path: 'p0/1.jpg',
      generationUuid: uuid(0),
      source: { bucket: 'generation-images', key: `final/${uuid(0)}/0.jpg` },
    },
    {
      path: 'p0/3.jpg',
      generationUuid: uuid(0),
      source: { bucket: 'generation-images', key: `final/${uuid(0)}/2.jpg` },
    },
  ]);
  // Nothing listed to download: no folder, and the note names the product.
  withdrawn.downloads.images = [];
  expect(downloadEntries(job(['handed']), [withdrawn], true)).toEqual([]);
});
