import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pollUntil } from '@productgen/test-kit';
import {
  plainRequest,
  RENDERING_PLATFORM_LIMITS,
  startInProcessPlatform,
  type InProcessPlatform,
  type PlainResponse,
} from './batch/platform';
import { batchForm, makeZip, readZipEntries } from '@productgen/test-kit/zips';

// Batch creation through the gateway on the platform as `npm start` composes it (embedded MongoDB and S3, the
// in-process bus, the real auth, billing, generation and bulk services): a batch from upload to Download All. The
// bad-input corpus is refused through Node's fetch in bulk-upload-refusals.test.ts.
jest.setTimeout(1_200_000);

const PHOTOS = path.resolve(__dirname, '../../../shared/photos/test');
const BULK_BUCKET = 'productgen-bulk';
const SIGNUP_CREDITS = 10;

interface BulkJobAnswer {
  bulk_job_uuid: string;
  status: string;
  generations_done: number;
  generations_total: number;
  thumbnails: string[];
  has_watermark: boolean;
  generations: Array<{
    generation_uuid: string;
    original_filename: string | null;
    images: Array<{ output_url: string; metadata: { fixes_done: boolean[] } }>;
    metadata: { status: string };
  }>;
}

let platform: InProcessPlatform;

function api(pathname: string, sessionKey: string, init: { method?: string; body?: FormData } = {}) {
  return plainRequest(`${platform.apiUrl}${pathname}`, { ...init, headers: { 'X-Session-Key': sessionKey } });
}

function json<T>(response: PlainResponse): T {
  if (response.status !== 200) throw new Error(`answered ${response.status}: ${response.body.toString('utf8')}`);
  return response.json<T>();
}

function upload(sessionKey: string, form: FormData): Promise<PlainResponse> {
  return api('/image-gen/bulk-zip', sessionKey, { method: 'POST', body: form });
}

async function credits(sessionKey: string): Promise<number> {
  return json<{ credits: number }>(await api('/auth/me', sessionKey)).credits;
}

async function photo(relative: string): Promise<Buffer> {
  return readFile(path.join(PHOTOS, relative));
}

beforeAll(async () => {
  platform = await startInProcessPlatform({ ...RENDERING_PLATFORM_LIMITS, PROGRESS_POLL_MS: '1000' });
});

afterAll(async () => {
  await platform?.stop();
});

describe('a batch from upload to Download All', () => {
  let owner: { sessionKey: string; userId: string };
  let jobUuid: string;

  test('the upload starts a job: duplicate names made unique, junk ignored, credits reserved up front', async () => {
    owner = await platform.signIn('batch.owner@example.com');
    await pollUntil(
      'the signup credits',
      () => credits(owner.sessionKey),
      (value) => value === SIGNUP_CREDITS,
    );
    const zip = await makeZip([
      { name: 'shop/headphones.jpg', data: await photo('electronics/headphones-black.jpg') },
      { name: 'more/headphones.jpg', data: await photo('electronics/speaker-box.jpg') },
      { name: '__MACOSX/shop/._headphones.jpg', data: Buffer.from('resource fork') },
      { name: 'Thumbs.db', data: Buffer.from('thumbnail cache') },
      { name: 'nested.zip', data: await makeZip([{ name: 'inner.jpg', data: await photo('bags/backpack-red.jpg') }]) },
      { name: 'notes.txt', data: Buffer.from('not a photo') },
    ]);

    const answer = json<{ bulk_job_uuid: string }>(
      await upload(owner.sessionKey, batchForm(zip, { numGenerates: '1' })),
    );
    jobUuid = answer.bulk_job_uuid;
    // 2 products × 1 image, all at once, before any image is made.
    expect(await credits(owner.sessionKey)).toBe(SIGNUP_CREDITS - 2);

    // While it runs it is in the in-progress list (rendering the images takes far longer than this call).
    const inProgress = json<{ jobs: Array<{ bulk_job_uuid: string; status: string }> }>(
      await api('/image-gen/bulk-jobs?statuses=pending,processing', owner.sessionKey),
    );
    expect(inProgress.jobs.map((job) => job.bulk_job_uuid)).toContain(jobUuid);
  });

  test('the job completes with every image, progress and thumbnails, and charges exactly what was made', async () => {
    const job = await pollUntil(
      'the batch to finish',
      async () => json<BulkJobAnswer>(await api(`/image-gen/bulk-job/${jobUuid}`, owner.sessionKey)),
      (value) => value.status === 'completed' || value.status === 'failed',
      { timeoutMs: 900_000, intervalMs: 1000 },
    );
    expect(job).toMatchObject({ status: 'completed', generations_done: 2, generations_total: 2, has_watermark: true });
    expect(job.generations.map((generation) => generation.original_filename)).toEqual([
      'headphones.jpg',
      'headphones-1.jpg',
    ]);
    for (const generation of job.generations) {
      expect(generation.metadata.status).toBe('completed');
      expect(generation.images).toHaveLength(1);
      expect(generation.images.every((image) => image.metadata.fixes_done.every(Boolean))).toBe(true);
    }
    expect(job.thumbnails).toHaveLength(2);
    expect(await credits(owner.sessionKey)).toBe(SIGNUP_CREDITS - 2);
    // The upload is gone once every product was handed over.
    expect(await platform.objects(BULK_BUCKET)).toEqual([]);

    const finished = json<{ jobs: Array<{ bulk_job_uuid: string }> }>(
      await api('/image-gen/bulk-jobs?statuses=completed,failed', owner.sessionKey),
    );
    expect(finished.jobs.map((entry) => entry.bulk_job_uuid)).toEqual([jobUuid]);
  });

  test('Download All streams a folder per product, originals only when asked for', async () => {
    const download = await api(`/download/bulk/${jobUuid}`, owner.sessionKey);
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('application/zip');
    const names = readZipEntries(download.body).map((entry) => entry.name);
    expect(names.sort()).toEqual(['headphones-1/1.jpg', 'headphones/1.jpg']);

    const withOriginals = await api(`/download/bulk/${jobUuid}?originals=true`, owner.sessionKey);
    const entries = readZipEntries(withOriginals.body);
    expect(
      entries
        .map((entry) => entry.name)
        .filter((name) => name.includes('original'))
        .sort(),
    ).toEqual(['headphones-1/original.jpg', 'headphones/original.jpg']);
    for (const entry of entries) expect(entry.data.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  test("another user's job id is a 404, for the job and for its download", async () => {
    const stranger = await platform.signIn('batch.stranger@example.com');
    const job = await api(`/image-gen/bulk-job/${jobUuid}`, stranger.sessionKey);
    expect(job.status).toBe(404);
    expect(job.json()).toEqual({ code: 404, error: 'Job not found.' });
    expect((await api(`/download/bulk/${jobUuid}`, stranger.sessionKey)).status).toBe(404);
    expect(json(await api('/image-gen/bulk-jobs', stranger.sessionKey))).toEqual({ jobs: [] });
  });
});
