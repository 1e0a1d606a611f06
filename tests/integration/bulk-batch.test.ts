import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { pollUntil } from '@productgen/test-kit';
import { plainRequest, startInProcessPlatform, type InProcessPlatform, type PlainResponse } from './batch/platform';
import { batchForm, craftZip, makeZip, readZipEntries } from '@productgen/test-kit/zips';

// Batch creation through the gateway on the platform as `npm start` composes it (embedded MongoDB and S3, the
// in-process bus, the real auth, billing, generation and bulk services): a batch from upload to Download All, and
// the bad-input corpus of issue 10, each refused with a clear 4xx while nothing is stored and nothing is charged.
jest.setTimeout(1_200_000);

const PHOTOS = path.resolve(__dirname, '../../../shared/photos/test');
const BULK_BUCKET = 'productgen-bulk';
const GENERATION_BUCKET = 'productgen-generation';
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

/** A PNG whose header claims 30000×30000 pixels: a pixel bomb that must be refused without being decoded. */
function pixelBombPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(30_000, 0);
  header.writeUInt32BE(30_000, 4);
  header.writeUInt8(8, 8);
  header.writeUInt8(2, 9);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(64))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

beforeAll(async () => {
  platform = await startInProcessPlatform({
    PROGRESS_POLL_MS: '1000',
    // In embedded mode the render worker's compose stages hold the one event loop for seconds at a time (measured
    // here: up to 16 s, a minute on a loaded machine), which every service shares; these limits let calls wait for
    // it instead of failing.
    SESSION_VERIFY_TIMEOUT_MS: '300000',
    UPSTREAM_TIMEOUT_MS: '300000',
    INTERNAL_TIMEOUT_MS: '300000',
    RESERVING_TIMEOUT_MS: '700000',
  });
});

afterAll(async () => {
  await platform?.stop();
});

describe('the bad-input corpus: a clear 4xx, nothing stored, nothing charged', () => {
  let user: { sessionKey: string; userId: string };
  let generationObjects: number;
  let jpeg: Buffer;

  beforeAll(async () => {
    user = await platform.signIn('batch.corpus@example.com');
    await pollUntil(
      'the signup credits',
      () => credits(user.sessionKey),
      (value) => value === SIGNUP_CREDITS,
    );
    generationObjects = (await platform.objects(GENERATION_BUCKET)).length;
    jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#c04020' } })
      .jpeg()
      .toBuffer();
  });

  afterEach(async () => {
    expect(await credits(user.sessionKey)).toBe(SIGNUP_CREDITS);
    expect(await platform.objects(BULK_BUCKET)).toEqual([]);
    expect((await platform.objects(GENERATION_BUCKET)).length).toBe(generationObjects);
    expect(json(await api('/image-gen/bulk-jobs', user.sessionKey))).toEqual({ jobs: [] });
  });

  async function refused(form: FormData, status: number, message: string | RegExp): Promise<void> {
    const answer = await upload(user.sessionKey, form);
    const body = answer.json<{ code: number; error: string }>();
    expect({ status: answer.status, code: body.code }).toEqual({ status, code: status });
    if (typeof message === 'string') expect(body.error).toBe(message);
    else expect(body.error).toMatch(message);
  }

  const corrupted = 'Failed to read the zip file. It might be corrupted.';

  test('not a zip: a text file sent as a zip, and a file that says it is text', async () => {
    await refused(batchForm(Buffer.from('hello, I am not a zip'), { numGenerates: '1' }), 400, corrupted);
    await refused(batchForm(Buffer.from('hello'), { numGenerates: '1' }, 'text/plain'), 400, /valid zip file/);
  });

  test('a truncated zip', async () => {
    const zip = await makeZip([
      { name: 'a.jpg', data: jpeg },
      { name: 'b.jpg', data: jpeg },
    ]);
    await refused(batchForm(zip.subarray(0, Math.floor(zip.length / 2)), { numGenerates: '1' }), 400, corrupted);
  });

  test('an encrypted entry', async () => {
    const zip = craftZip([{ name: 'secret.jpg', data: jpeg, encrypted: true }]);
    await refused(batchForm(zip, { numGenerates: '1' }), 400, /protected with a password/);
  });

  test('a zip bomb by compression ratio', async () => {
    const zip = craftZip([{ name: 'bomb.jpg', data: Buffer.alloc(11 * 1024 * 1024), deflate: true }]);
    await refused(batchForm(zip, { numGenerates: '1' }), 413, /bomb\.jpg unpacks to far more than its packed size/);
  });

  test('a zip bomb by overlapping entries', async () => {
    const entries = [
      { name: 'kernel.jpg', data: jpeg },
      ...Array.from({ length: 50 }, (_, index) => ({
        name: `copy-${index}.jpg`,
        data: jpeg,
        sameDataAs: 0,
      })),
    ];
    await refused(batchForm(craftZip(entries), { numGenerates: '1' }), 400, /files overlap each other/);
  });

  test('a lying size header', async () => {
    const zip = craftZip([{ name: 'liar.jpg', data: jpeg, deflate: true, declaredSize: 100 }]);
    await refused(batchForm(zip, { numGenerates: '1' }), 400, corrupted);
  });

  test('zip slip names', async () => {
    await refused(
      batchForm(craftZip([{ name: '../../evil.jpg', data: jpeg }]), { numGenerates: '1' }),
      400,
      /unsafe name/,
    );
    await refused(
      batchForm(craftZip([{ name: '/etc/evil.jpg', data: jpeg }]), { numGenerates: '1' }),
      400,
      /unsafe name/,
    );
  });

  test('201 images and 0 images', async () => {
    // The image entries are counted as the zip streams in, against the balance: a user whose signup credits cannot
    // pay for 201 images is refused for credits before the rest is read (nothing stored); the count's own 400 ("holds
    // 201 images; a batch takes at most 200") answers a balance that covers them.
    const many = await makeZip(Array.from({ length: 201 }, (_, index) => ({ name: `p${index}.jpg`, data: jpeg })));
    await refused(batchForm(many, { numGenerates: '1' }), 402, 'Out of credits! Top up to keep the magic going.');
    const none = await makeZip([
      { name: '__MACOSX/._a.jpg', data: jpeg },
      { name: 'readme.txt', data: Buffer.from('no photos here') },
    ]);
    await refused(batchForm(none, { numGenerates: '1' }), 400, /holds no images/);
  });

  test('a non-image renamed .jpg, and a pixel bomb inside the zip', async () => {
    const renamed = await makeZip([
      { name: 'ok.jpg', data: jpeg },
      { name: 'fake.jpg', data: Buffer.from('%PDF-1.7 not an image') },
    ]);
    await refused(
      batchForm(renamed, { numGenerates: '1' }),
      415,
      'fake.jpg: The file is not a supported image (JPEG, PNG or WebP).',
    );
    const bomb = await makeZip([{ name: 'huge.png', data: pixelBombPng() }]);
    await refused(batchForm(bomb, { numGenerates: '1' }), 413, /huge\.png: The image is too large: 30000×30000 pixels/);
  });

  test('numGenerates 0 and 6, 6 presets, an unknown preset', async () => {
    const zip = await makeZip([{ name: 'a.jpg', data: jpeg }]);
    await refused(batchForm(zip, { numGenerates: '0' }), 400, /numGenerates must be between 1 and 5/);
    await refused(batchForm(zip, { numGenerates: '6' }), 400, /numGenerates must be between 1 and 5/);
    const six = JSON.stringify(['p1', 'p2', 'p3', 'p4', 'p5', 'p6']);
    await refused(batchForm(zip, { numGenerates: '5', presets: six }), 400, /at most 5 style presets/);
    await refused(
      batchForm(zip, { numGenerates: '1', presets: '["p-unknown"]' }),
      404,
      'Style preset not found: p-unknown',
    );
  });

  test('too few credits: 402 with the SPEC text', async () => {
    const zip = await makeZip([
      { name: 'a.jpg', data: jpeg },
      { name: 'b.jpg', data: jpeg },
      { name: 'c.jpg', data: jpeg },
    ]);
    await refused(batchForm(zip, { numGenerates: '5' }), 402, 'Out of credits! Top up to keep the magic going.');
  });
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
