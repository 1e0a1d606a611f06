import { randomBytes } from 'node:crypto';
import { payloadTooLargeMessage } from '../../services/gateway/src/domain/routing';
import { zipTooLargeMessage } from '../../services/bulk/src/domain/zip-rules';
import { pollUntil } from '@productgen/test-kit';
import sharp from 'sharp';
import { pngClaimingSize } from '@productgen/test-kit/hostile-images';
import { startInProcessPlatform, type InProcessPlatform } from './batch/platform';
import { batchForm, craftZip, makeZip } from '@productgen/test-kit/zips';

// A refused batch upload through Node's fetch (undici), as a script or another service would send it: the client
// must read the 4xx and its message. A server that answers before it has read the body and then closes the
// connection resets it under the client's still-sending upload, and fetch then reports only "fetch failed" (curl,
// which reads the answer while it sends, saw the status). Small limits keep the bodies small. Then the bad-input
// corpus (broken, hostile and over-limit zips, bad options), each refused with its 4xx and message through fetch
// while nothing is stored and nothing is charged.
jest.setTimeout(300_000);

const MIB = 1024 * 1024;
const MAX_ZIP_BYTES = 2 * MIB;
const UPLOAD_BODY_LIMIT_BYTES = 3 * MIB;
const SIGNUP_CREDITS = 10;
const BULK_BUCKET = 'productgen-bulk';
const GENERATION_BUCKET = 'productgen-generation';
const OUT_OF_CREDITS = 'Out of credits! Top up to keep the magic going.';
const CORRUPTED = 'Failed to read the zip file. It might be corrupted.';

let platform: InProcessPlatform;
let sessionKey: string;

beforeAll(async () => {
  platform = await startInProcessPlatform({
    MAX_ZIP_BYTES: String(MAX_ZIP_BYTES),
    UPLOAD_BODY_LIMIT_BYTES: String(UPLOAD_BODY_LIMIT_BYTES),
  });
  ({ sessionKey } = await platform.signIn('batch.refusals@example.com'));
  // The account exists once its signup credits are booked; a refusal must not depend on billing being slow.
  await pollUntil('the signup credits', credits, (value) => value === SIGNUP_CREDITS);
});

async function credits(): Promise<number> {
  const answer = await fetch(`${platform.apiUrl}/auth/me`, { headers: { 'X-Session-Key': sessionKey } });
  return ((await answer.json()) as { credits: number }).credits;
}

afterAll(async () => {
  await platform?.stop();
});

/** Posts the form with fetch; a connection reset makes fetch reject, which fails the test with its cause. */
async function upload(
  form: FormData,
): Promise<{ status: number; connection: string | null; body: { code?: number; error?: string } }> {
  const response = await fetch(`${platform.apiUrl}/image-gen/bulk-zip`, {
    method: 'POST',
    headers: { 'X-Session-Key': sessionKey },
    body: form,
  });
  const body = (await response.json()) as { code?: number; error?: string };
  return { status: response.status, connection: response.headers.get('connection'), body };
}

test('an upload larger than the gateway takes (declared length): 413 and its message', async () => {
  const answer = await upload(batchForm(randomBytes(4 * MIB), { numGenerates: '1' }));
  expect(answer).toEqual({
    status: 413,
    // The gateway refused it itself: it drained the body and closes the connection.
    connection: 'close',
    body: expect.objectContaining({ code: 413, error: payloadTooLargeMessage(UPLOAD_BODY_LIMIT_BYTES) }),
  });
});

test('a zip larger than the bulk service takes (cut while streaming): 413 and its message', async () => {
  const answer = await upload(batchForm(randomBytes(MAX_ZIP_BYTES + MIB / 2), { numGenerates: '1' }));
  expect(answer).toMatchObject({
    status: 413,
    body: expect.objectContaining({ code: 413, error: zipTooLargeMessage(MAX_ZIP_BYTES) }),
  });
});

test('a file that is not of a zip type: 400 and SPEC text', async () => {
  const answer = await upload(batchForm(randomBytes(MIB), { numGenerates: '1' }, 'text/plain'));
  expect(answer).toMatchObject({
    status: 400,
    body: expect.objectContaining({ code: 400, error: 'Please upload a valid zip file.' }),
  });
});

test('a zip that is not a zip: 400 and SPEC text', async () => {
  const answer = await upload(batchForm(randomBytes(MIB), { numGenerates: '1' }));
  expect(answer).toMatchObject({
    status: 400,
    body: expect.objectContaining({ code: 400, error: 'Failed to read the zip file. It might be corrupted.' }),
  });
});

describe('the bad-input corpus: a clear 4xx, nothing stored, nothing charged', () => {
  let generationObjects: number;
  let jpeg: Buffer;

  beforeAll(async () => {
    generationObjects = (await platform.objects(GENERATION_BUCKET)).length;
    jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#c04020' } })
      .jpeg()
      .toBuffer();
  });

  afterEach(async () => {
    expect(await credits()).toBe(SIGNUP_CREDITS);
    expect(await platform.objects(BULK_BUCKET)).toEqual([]);
    expect((await platform.objects(GENERATION_BUCKET)).length).toBe(generationObjects);
    const jobs = await fetch(`${platform.apiUrl}/image-gen/bulk-jobs`, { headers: { 'X-Session-Key': sessionKey } });
    expect(await jobs.json()).toEqual({ jobs: [] });
  });

  async function refused(form: FormData, status: number, message: string | RegExp): Promise<void> {
    const answer = await upload(form);
    expect({ status: answer.status, code: answer.body.code }).toEqual({ status, code: status });
    if (typeof message === 'string') expect(answer.body.error).toBe(message);
    else expect(answer.body.error).toMatch(message);
  }

  test('not a zip: a text file sent as a zip, and a file that says it is text', async () => {
    await refused(batchForm(Buffer.from('hello, I am not a zip'), { numGenerates: '1' }), 400, CORRUPTED);
    await refused(batchForm(Buffer.from('hello'), { numGenerates: '1' }, 'text/plain'), 400, /valid zip file/);
  });

  test('a truncated zip', async () => {
    const zip = await makeZip([
      { name: 'a.jpg', data: jpeg },
      { name: 'b.jpg', data: jpeg },
    ]);
    await refused(batchForm(zip.subarray(0, Math.floor(zip.length / 2)), { numGenerates: '1' }), 400, CORRUPTED);
  });

  test('an encrypted entry', async () => {
    const zip = craftZip([{ name: 'secret.jpg', data: jpeg, encrypted: true }]);
    await refused(batchForm(zip, { numGenerates: '1' }), 400, /protected with a password/);
  });

  test('a zip bomb by compression ratio', async () => {
    const zip = craftZip([{ name: 'bomb.jpg', data: Buffer.alloc(11 * MIB), deflate: true }]);
    await refused(batchForm(zip, { numGenerates: '1' }), 413, /bomb\.jpg unpacks to far more than its packed size/);
  });

  test('a zip bomb by overlapping entries', async () => {
    const entries = [
      { name: 'kernel.jpg', data: jpeg },
      ...Array.from({ length: 50 }, (_, index) => ({ name: `copy-${index}.jpg`, data: jpeg, sameDataAs: 0 })),
    ];
    await refused(batchForm(craftZip(entries), { numGenerates: '1' }), 400, /files overlap each other/);
  });

  test('a lying size header', async () => {
    const zip = craftZip([{ name: 'liar.jpg', data: jpeg, deflate: true, declaredSize: 100 }]);
    await refused(batchForm(zip, { numGenerates: '1' }), 400, CORRUPTED);
  });

  test('zip slip names', async () => {
    for (const name of ['../../evil.jpg', '/etc/evil.jpg']) {
      await refused(batchForm(craftZip([{ name, data: jpeg }]), { numGenerates: '1' }), 400, /unsafe name/);
    }
  });

  test('201 images and 0 images', async () => {
    // The image entries are counted as the zip streams in, against the balance: a user whose signup credits cannot
    // pay for 201 images is refused for credits before the rest is read (nothing stored); the count's own 400 ("holds
    // 201 images; a batch takes at most 200") answers a balance that covers them (services/bulk credit-check.test.ts).
    const many = await makeZip(Array.from({ length: 201 }, (_, index) => ({ name: `p${index}.jpg`, data: jpeg })));
    await refused(batchForm(many, { numGenerates: '1' }), 402, OUT_OF_CREDITS);
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
    const bomb = await makeZip([{ name: 'huge.png', data: pngClaimingSize(30_000, 30_000) }]);
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
    await refused(batchForm(zip, { numGenerates: '5' }), 402, OUT_OF_CREDITS);
  });
});
