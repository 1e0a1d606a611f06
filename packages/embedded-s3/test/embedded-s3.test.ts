import { createHash } from 'node:crypto';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { once } from 'node:events';
import { Client } from 'minio';
import { startEmbeddedS3, type EmbeddedS3 } from '@productgen/embedded-s3';
import { createObjectStore } from '@productgen/service-kit';

jest.setTimeout(180_000);

const MiB = 1024 * 1024;

/** Deterministic pseudo-random bytes (xorshift32), generated a chunk at a time; `digest` is their sha256. */
function deterministicStream(totalBytes: number, chunkBytes = MiB): { stream: Readable; digest: Promise<string> } {
  const hash = createHash('sha256');
  let state = 0x9e3779b9;
  let produced = 0;
  let resolveDigest: (value: string) => void = () => undefined;
  const digest = new Promise<string>((resolve) => (resolveDigest = resolve));
  const stream = new Readable({
    read() {
      if (produced >= totalBytes) {
        resolveDigest(hash.digest('hex'));
        this.push(null);
        return;
      }
      const words = new Uint32Array(Math.min(chunkBytes, totalBytes - produced) / 4);
      for (let i = 0; i < words.length; i++) {
        state ^= state << 13;
        state ^= state >>> 17;
        state ^= state << 5;
        words[i] = state >>> 0;
      }
      const chunk = Buffer.from(words.buffer);
      produced += chunk.length;
      hash.update(chunk);
      this.push(chunk);
    },
  });
  return { stream, digest };
}

async function sha256Of(stream: Readable): Promise<{ hex: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { hex: hash.digest('hex'), bytes };
}

function minioClientFor(s3: EmbeddedS3, partSize?: number): Client {
  const url = new URL(s3.endpoint);
  return new Client({
    endPoint: url.hostname,
    port: Number(url.port),
    useSSL: false,
    accessKey: s3.accessKey,
    secretKey: s3.secretKey,
    region: 'us-east-1',
    ...(partSize ? { partSize } : {}),
  });
}

describe('embedded S3', () => {
  let dataDir: string;
  let s3: EmbeddedS3 | undefined;

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'embedded-s3-'));
  });
  afterEach(async () => {
    await s3?.stop();
    s3 = undefined;
    await rm(dataDir, { recursive: true, force: true });
  });

  it('stores a 100 MiB stream of unknown length through minio multipart upload and reads it back intact', async () => {
    const requests: string[] = [];
    const logger = {
      debug: (fields: object) => {
        const { method, path: requestPath } = fields as { method: string; path: string };
        requests.push(`${method} ${requestPath}`);
      },
      warn: () => undefined,
      error: () => undefined,
    };
    s3 = await startEmbeddedS3({ dataDir, buckets: ['big'], logger });
    // 16 MiB parts: the minio client buffers one part at a time instead of the whole stream.
    const client = minioClientFor(s3, 16 * MiB);
    const total = 100 * MiB;
    const { stream, digest } = deterministicStream(total);

    // No size argument: the client must use multipart (ListMultipartUploads shim, then initiate/parts/complete).
    await client.putObject('big', 'blobs/hundred.bin', stream);

    // 100 MiB in 16 MiB parts: seven part uploads after the uploads listing and the initiation.
    expect(requests.filter((line) => line === 'GET /big')).toHaveLength(1);
    expect(requests.filter((line) => line === 'PUT /big/blobs/hundred.bin')).toHaveLength(7);
    expect(requests.filter((line) => line === 'POST /big/blobs/hundred.bin')).toHaveLength(2);

    const stat = await client.statObject('big', 'blobs/hundred.bin');
    expect(stat.size).toBe(total);
    const readBack = await sha256Of(await client.getObject('big', 'blobs/hundred.bin'));
    expect(readBack.bytes).toBe(total);
    expect(readBack.hex).toBe(await digest);
  });

  it('answers ListMultipartUploads with an empty list and refuses unsigned requests', async () => {
    s3 = await startEmbeddedS3({ dataDir, buckets: ['lists'] });
    const client = minioClientFor(s3);
    const uploads: unknown[] = [];
    const listing = client.listIncompleteUploads('lists', '', true);
    listing.on('data', (upload) => uploads.push(upload));
    await once(listing, 'end');
    expect(uploads).toEqual([]);

    const unsigned = await fetch(`${s3.endpoint}/lists?uploads`);
    expect(unsigned.status).toBe(403);
    expect(await unsigned.text()).toContain('<Code>AccessDenied</Code>');
  });

  it('aborts a multipart upload, deleting its stored parts', async () => {
    s3 = await startEmbeddedS3({ dataDir, buckets: ['aborts'] });
    const client = minioClientFor(s3);
    const uploadId = await client.initiateNewMultipartUpload('aborts', 'half.bin', {});
    const uploadDir = path.join(dataDir, 'aborts', '._S3rver_uploads', uploadId);
    await expect(access(uploadDir)).resolves.toBeUndefined();

    await client.abortMultipartUpload('aborts', 'half.bin', uploadId);
    await expect(access(uploadDir)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses an access key it does not know', async () => {
    s3 = await startEmbeddedS3({ dataDir, accessKey: 'productgen', secretKey: 'productgen-secret', buckets: ['keys'] });
    const stranger = minioClientFor({ ...s3, accessKey: 'someone-else' });
    await expect(stranger.putObject('keys', 'x.txt', Buffer.from('x'))).rejects.toMatchObject({
      code: 'InvalidAccessKeyId',
    });
    await minioClientFor(s3).putObject('keys', 'x.txt', Buffer.from('x'));
    expect((await minioClientFor(s3).statObject('keys', 'x.txt')).size).toBe(1);
  });

  it('serves presigned GET URLs (via the service-kit object store) until they expire', async () => {
    s3 = await startEmbeddedS3({ dataDir });
    const store = createObjectStore({
      endpoint: s3.endpoint,
      accessKey: s3.accessKey,
      secretKey: s3.secretKey,
      bucket: 'photos',
    });
    await store.ensureBucket();
    await store.putObject('user-1/photo.png', Buffer.from('not really a png'), { contentType: 'image/png' });

    const url = await store.presignGet('user-1/photo.png', 1);
    const fresh = await fetch(url);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('content-type')).toBe('image/png');
    expect(await fresh.text()).toBe('not really a png');

    // X-Amz-Date has one-second resolution: past 1 s + that rounding + margin the URL is surely expired.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const expired = await fetch(url);
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain('Request has expired');
  });

  it('keeps buckets and objects across a restart on the same data directory', async () => {
    s3 = await startEmbeddedS3({ dataDir });
    const options = { accessKey: s3.accessKey, secretKey: s3.secretKey, bucket: 'durable' };
    const before = createObjectStore({ ...options, endpoint: s3.endpoint });
    await before.ensureBucket();
    await before.putObject('kept.txt', Readable.from([Buffer.from('still '), Buffer.from('here')]), {
      contentType: 'text/plain',
      size: 10,
    });
    await s3.stop();

    s3 = await startEmbeddedS3({ dataDir });
    const after = createObjectStore({ ...options, endpoint: s3.endpoint });
    await after.ping();
    expect(await after.stat('kept.txt')).toMatchObject({ size: 10, contentType: 'text/plain' });
    expect((await sha256Of(await after.getObjectStream('kept.txt'))).hex).toBe(
      createHash('sha256').update('still here').digest('hex'),
    );
  });
});
