import { randomBytes } from 'node:crypto';
import { payloadTooLargeMessage } from '../../services/gateway/src/domain/routing';
import { zipTooLargeMessage } from '../../services/bulk/src/domain/zip-rules';
import { pollUntil } from '@productgen/test-kit';
import { startInProcessPlatform, type InProcessPlatform } from './batch/platform';
import { batchForm } from '@productgen/test-kit/zips';

// A refused batch upload through Node's fetch (undici), as a script or another service would send it: the client
// must read the 4xx and its message. A server that answers before it has read the body and then closes the
// connection resets it under the client's still-sending upload, and fetch then reports only "fetch failed" (curl,
// which reads the answer while it sends, saw the status). Small limits keep the bodies small.
jest.setTimeout(300_000);

const MIB = 1024 * 1024;
const MAX_ZIP_BYTES = 2 * MIB;
const UPLOAD_BODY_LIMIT_BYTES = 3 * MIB;

let platform: InProcessPlatform;
let sessionKey: string;

beforeAll(async () => {
  platform = await startInProcessPlatform({
    MAX_ZIP_BYTES: String(MAX_ZIP_BYTES),
    UPLOAD_BODY_LIMIT_BYTES: String(UPLOAD_BODY_LIMIT_BYTES),
  });
  ({ sessionKey } = await platform.signIn('batch.refusals@example.com'));
  // The account exists once its signup credits are booked; a refusal must not depend on billing being slow.
  await pollUntil(
    'the signup credits',
    async () =>
      (await (await fetch(`${platform.apiUrl}/auth/me`, { headers: { 'X-Session-Key': sessionKey } })).json()) as {
        credits: number;
      },
    (me) => me.credits > 0,
  );
});

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
