import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { readStoppedPlatformObjectKeys } from '@productgen/test-kit/object-store';
import { readStoppedPlatformDatabase } from '../support/platform-database';
import {
  signInWithDevIdentity,
  startPlatformProcess,
  type PlatformProcess,
} from '@productgen/test-kit/platform-process';
import { pollUntil } from '@productgen/test-kit';
import { pngClaimingSize } from '@productgen/test-kit/hostile-images';
import { readZipEntries } from '@productgen/test-kit/zips';

// Issue 5's API flow against the platform as `npm start` runs it, through the one API origin (the gateway): sign
// in, analyse a test photo, create three images, follow the status to the end, download them the way a plain
// link does (the session cookie, no header), and see the charge. A second user sees none of it, and bad input is
// refused with a clear 4xx that charges and stores nothing. The tests run in order and share the first user's
// generation.
jest.setTimeout(240_000);

const PHOTO = path.resolve(__dirname, '../../../shared/photos/test/kitchen/teapot-clay.jpg');
const GENERATION_BUCKET = 'productgen-generation';
const SIGNUP_CREDITS = 10;
const IMAGES = 3;
const MIN_LONG_SIDE = 2048;

interface SignedInUser {
  id: string;
  sessionKey: string;
}

interface StatusAnswer {
  analyzed: boolean;
  images: Array<{ id: string; input_url: string; output_url: string; metadata: { fixes_done: boolean[] } }>;
  gen_error: string | null;
  status: 'pending' | 'processing' | 'completed' | 'failed';
  has_watermark: boolean;
}

interface CreditLogAnswer {
  items: Array<{ description: string; generation_id: string | null; transaction_type: string; amount: number }>;
  total: number;
}

let dataDir: string;
let platform: PlatformProcess;
let alice: SignedInUser;
let bob: SignedInUser;
let photo: Buffer;
let generationUuid: string;
let presetId: string;
let finalStatus: StatusAnswer;

/** A request through the gateway, signed in with the X-Session-Key header as the web app sends it. */
function api(
  user: SignedInUser | null,
  pathname: string,
  options: { method?: 'GET' | 'POST'; json?: unknown; rawBody?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (user) headers['X-Session-Key'] = user.sessionKey;
  const body = options.rawBody ?? (options.json === undefined ? undefined : JSON.stringify(options.json));
  if (body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${platform.apiUrl}${pathname}`, { method: options.method ?? 'GET', headers, body });
}

/** A download as a plain link makes it: the browser sends only the session cookie. */
function download(user: SignedInUser, pathname: string): Promise<Response> {
  return fetch(`${platform.apiUrl}${pathname}`, { headers: { cookie: `session_key=${user.sessionKey}` } });
}

async function json<T>(answer: Response, status = 200): Promise<T> {
  const text = await answer.text();
  if (answer.status !== status) throw new Error(`expected ${status}, got ${answer.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

async function creditsOf(user: SignedInUser): Promise<{ credits: number; credits_pending?: boolean }> {
  return json(await api(user, '/auth/me'));
}

async function creditLogOf(user: SignedInUser): Promise<CreditLogAnswer> {
  return json(await api(user, '/credits/log?page=1&pageSize=50'));
}

/** Signs a new person in and waits for billing's signup credits, which arrive through a message. */
async function signUp(person: { email: string; given_name: string; family_name: string }): Promise<SignedInUser> {
  const { session_key, user } = await signInWithDevIdentity(platform.apiUrl, person);
  const signedIn = { id: user.id, sessionKey: session_key };
  await pollUntil(
    `${person.email}'s signup credits`,
    () => creditsOf(signedIn),
    (me) => me.credits === SIGNUP_CREDITS && !me.credits_pending,
  );
  return signedIn;
}

/** A 4xx answer with the platform's error shape `{code, error}` and a message a person can read. */
async function expectClearRejection(answer: Response, status: number, message: RegExp): Promise<void> {
  const body = (await answer.json()) as { code: number; error: string };
  expect({ status: answer.status, body }).toEqual({
    status,
    body: expect.objectContaining({ code: status, error: expect.stringMatching(message) }),
  });
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'productgen-e2e-generation-'));
  photo = await readFile(PHOTO);
  // The generation service loads its models at start: more time than the other suites need.
  platform = await startPlatformProcess({ dataDir, startTimeoutMs: 180_000 });
});

afterAll(async () => {
  await platform?.stop('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

describe('creating images through the API of npm start', () => {
  test('a new user signs in through the dev identity provider and gets the 10 signup credits', async () => {
    alice = await signUp({ email: 'alice.generation@example.com', given_name: 'Alice', family_name: 'Maker' });
    bob = await signUp({ email: 'bob.generation@example.com', given_name: 'Bob', family_name: 'Other' });
    expect(await creditsOf(alice)).toMatchObject({ credits: SIGNUP_CREDITS });
  });

  test('analysing a test photo names the product and its category', async () => {
    const categories = await json<Array<{ id: string }>>(await api(alice, '/image-gen/categories'));
    const analysis = await json<{ category: string; object: string; generation_uuid: string }>(
      await api(alice, '/image-gen/category', { method: 'POST', json: { image: photo.toString('base64') } }),
    );
    expect(categories.map((category) => category.id)).toContain(analysis.category);
    expect(analysis.object).toMatch(/\w/);
    expect(analysis.generation_uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    generationUuid = analysis.generation_uuid;
  });

  test('creating 3 images: the status goes to completed with 3 images, every fix done', async () => {
    const started = await api(alice, '/imageGenFromId', {
      method: 'POST',
      json: { id: generationUuid, numGenerates: IMAGES },
    });
    expect(await json(started)).toEqual({ generation_uuid: generationUuid, status: 'pending' });

    const seen = new Set<string>();
    finalStatus = await pollUntil(
      'the generation to finish',
      async () => {
        const status = await json<StatusAnswer>(await api(alice, `/image-gen/status/${generationUuid}`));
        seen.add(status.status);
        return status;
      },
      (status) => status.status === 'completed' || status.status === 'failed',
      { timeoutMs: 180_000, intervalMs: 250 },
    );
    expect([...seen].every((status) => ['pending', 'processing', 'completed'].includes(status))).toBe(true);
    expect(finalStatus).toMatchObject({ analyzed: true, status: 'completed', gen_error: null, has_watermark: true });
    expect(finalStatus.images).toHaveLength(IMAGES);
    expect(new Set(finalStatus.images.map((image) => image.id)).size).toBe(IMAGES);
    for (const image of finalStatus.images) {
      expect(image.metadata.fixes_done.length).toBeGreaterThan(0);
      expect(image.metadata.fixes_done.every(Boolean)).toBe(true);
    }
  });

  test('each image downloads with the session cookie alone as a JPEG of at least 2048 px', async () => {
    for (const image of finalStatus.images) {
      const answer = await download(alice, image.output_url);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-disposition')).toMatch(/^attachment; filename="productgen-.+\.jpg"$/);
      const meta = await sharp(Buffer.from(await answer.arrayBuffer())).metadata();
      expect(meta.format).toBe('jpeg');
      expect(Math.max(meta.width, meta.height)).toBeGreaterThanOrEqual(MIN_LONG_SIDE);
    }
    const original = await download(alice, `/download/${generationUuid}/image/-1`);
    expect(original.status).toBe(200);
    expect((await sharp(Buffer.from(await original.arrayBuffer())).metadata()).format).toBe('jpeg');
    // The cookie is what opens the link: without it the same link is refused.
    expect((await fetch(`${platform.apiUrl}${finalStatus.images[0]!.output_url}`)).status).toBe(401);
  });

  test('the batch download is a zip of the 3 images', async () => {
    const answer = await download(alice, `/download/${generationUuid}/batch`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/zip');
    expect(answer.headers.get('content-disposition')).toMatch(/^attachment; filename="productgen-.+\.zip"$/);
    const entries = readZipEntries(Buffer.from(await answer.arrayBuffer()));
    expect(entries).toHaveLength(IMAGES);
    expect(new Set(entries.map((entry) => entry.name)).size).toBe(IMAGES);
    for (const entry of entries) {
      const meta = await sharp(entry.data).metadata();
      expect(meta.format).toBe('jpeg');
      expect(Math.max(meta.width, meta.height)).toBeGreaterThanOrEqual(MIN_LONG_SIDE);
    }
  });

  test('the user has 7 credits left and the credit log shows the debit of the generation', async () => {
    expect((await creditsOf(alice)).credits).toBe(SIGNUP_CREDITS - IMAGES);
    const { items } = await creditLogOf(alice);
    // Billing books a reservation one entry per image, so each image's credit can be given back on its own.
    const debits = items.filter((entry) => entry.generation_id === generationUuid);
    expect(debits.every((entry) => entry.transaction_type === 'decrease')).toBe(true);
    expect(debits.reduce((sum, entry) => sum + entry.amount, 0)).toBe(IMAGES);
    expect(items.filter((entry) => entry.generation_id !== generationUuid)).toEqual([
      expect.objectContaining({ description: 'Signup bonus', transaction_type: 'increase', amount: SIGNUP_CREDITS }),
    ]);
  });
});

describe("a second user sees nothing of the first user's", () => {
  beforeAll(async () => {
    const saved = await api(alice, '/style-presets', {
      method: 'POST',
      json: { generation_uuid: generationUuid, image_index: 0, preset_name: '  Clay on white  ' },
    });
    const preset = await json<{ id: string; preset_name: string }>(saved);
    expect(preset.preset_name).toBe('Clay on white');
    presetId = preset.id;
    // The owner can read it, so the 404s below are about ownership, not a missing preset.
    expect((await api(alice, `/style-presets/${presetId}`)).status).toBe(200);
  });

  test.each([
    ['status', () => `/image-gen/status/${generationUuid}`, /^Generation not found$/],
    ['generated detail', () => `/image-gen/generated/${generationUuid}`, /^Generation not found$/],
    ['style preset', () => `/style-presets/${presetId}`, /^Style preset not found$/],
  ])('the %s answers 404', async (_what, pathname, message) => {
    await expectClearRejection(await api(bob, pathname()), 404, message);
  });

  test('every image, the original and the batch download answer 404', async () => {
    const links = [
      ...finalStatus.images.map((image) => image.output_url),
      `/download/${generationUuid}/image/-1`,
      `/download/${generationUuid}/batch`,
    ];
    for (const link of links) {
      // The owner's cookie opens each link; the other user's does not.
      expect((await download(alice, link)).status).toBe(200);
      await expectClearRejection(await download(bob, link), 404, /^Generation not found$/);
    }
  });

  test("the lists leave out the first user's generation and preset", async () => {
    const generations = await json<{ items: Array<{ id: string }>; total: number }>(
      await api(bob, '/image-gen/generations'),
    );
    expect(generations).toEqual({ items: [], total: 0 });
    const presets = await json<{ presets: Array<{ id: string }> }>(await api(bob, '/style-presets'));
    expect(presets.presets).toEqual([]);
    const records = await json<{ records: unknown[] }>(await api(bob, '/records'));
    expect(records.records).toEqual([]);
  });

  test("creating from the first user's photo, or with their preset, answers 404 and charges nothing", async () => {
    const fromForeignPhoto = await api(bob, '/imageGenFromId', {
      method: 'POST',
      json: { id: generationUuid, numGenerates: 1 },
    });
    await expectClearRejection(fromForeignPhoto, 404, /^Generation not found$/);

    const own = await json<{ generation_uuid: string }>(
      await api(bob, '/image-gen/category', { method: 'POST', json: { image: photo.toString('base64') } }),
    );
    const withForeignPreset = await api(bob, '/imageGenFromId', {
      method: 'POST',
      json: { id: own.generation_uuid, numGenerates: 1, presets: [presetId] },
    });
    await expectClearRejection(withForeignPreset, 404, new RegExp(`^Style preset not found: ${presetId}$`));
    expect((await creditsOf(bob)).credits).toBe(SIGNUP_CREDITS);
  });
});

describe('bad input through the gateway: a clear 4xx, nothing charged', () => {
  let creditsBefore: number;
  let logBefore: CreditLogAnswer;

  beforeAll(async () => {
    creditsBefore = (await creditsOf(alice)).credits;
    logBefore = await creditLogOf(alice);
  });

  const analyse = (user: SignedInUser, body: { json?: unknown; rawBody?: string }) =>
    api(user, '/image-gen/category', { method: 'POST', ...body });
  const create = (body: unknown) => api(alice, '/imageGenFromId', { method: 'POST', json: body });

  test('a file that is not a picture, sent with an image type, answers 415', async () => {
    const text = Buffer.from('These are the shop opening hours, not a photo of a product.\n'.repeat(20));
    const answer = await analyse(alice, { json: { image: `data:image/jpeg;base64,${text.toString('base64')}` } });
    await expectClearRejection(answer, 415, /not a supported image \(JPEG, PNG or WebP\)/);
  });

  test('a truncated JPEG answers 400', async () => {
    const truncated = photo.subarray(0, Math.floor(photo.length / 3));
    await expectClearRejection(
      await analyse(alice, { json: { image: truncated.toString('base64') } }),
      400,
      /could not be read: the file is damaged or incomplete/,
    );
  });

  test('a PNG of 30000×30000 pixels answers 413 without being decoded', async () => {
    const answer = await analyse(alice, { json: { image: pngClaimingSize().toString('base64') } });
    await expectClearRejection(answer, 413, /too large: 30000×30000 pixels/);
  });

  test('an empty body and an empty image answer 400', async () => {
    await expectClearRejection(await analyse(alice, { rawBody: '' }), 400, /body is required/);
    await expectClearRejection(await analyse(alice, { json: { image: '' } }), 400, /image must not be empty/);
  });

  test.each([0, 6])('numGenerates %i answers 400', async (numGenerates) => {
    await expectClearRejection(
      await create({ id: generationUuid, numGenerates }),
      400,
      /numGenerates must be between 1 and 5/,
    );
  });

  test('six presets answer 400', async () => {
    const presets = Array.from({ length: 6 }, (_, index) => `${presetId.slice(0, -1)}${index}`);
    await expectClearRejection(
      await create({ id: generationUuid, numGenerates: 6, presets }),
      400,
      /at most 5 style presets/,
    );
  });

  test('an unknown preset id answers 404', async () => {
    const unknown = presetId.replace(/.$/, (last) => (last === '0' ? '1' : '0'));
    await expectClearRejection(
      await create({ id: generationUuid, numGenerates: 1, presets: [unknown] }),
      404,
      new RegExp(`^Style preset not found: ${unknown}$`),
    );
  });

  test('after all of them the credits and the credit log are unchanged', async () => {
    expect((await creditsOf(alice)).credits).toBe(creditsBefore);
    expect(await creditLogOf(alice)).toEqual(logBefore);
  });
});

describe('what the platform stored', () => {
  test('one generation per accepted photo and only its objects: the refused requests stored nothing', async () => {
    expect(await platform.stop('SIGINT')).toBe(0);
    const owners = await readStoppedPlatformDatabase(dataDir, 'generation', async (db) =>
      (await db.collection('generations').find({}).toArray()).map((generation) => generation['user_id'] as string),
    );
    expect(owners.sort()).toEqual([alice.id, bob.id].sort());
    const keys = await readStoppedPlatformObjectKeys(dataDir, GENERATION_BUCKET, 'generations/');
    const alicesKeys = keys.filter((key) => key.startsWith(`generations/${generationUuid}/`));
    // The original, the matte analysis cut the product out by, and the base and the finished image of each of the
    // three.
    expect(alicesKeys).toHaveLength(2 + 2 * IMAGES);
    // Bob's analysed photo and its matte are the only other objects.
    expect(keys.length - alicesKeys.length).toBe(2);
  });
});
