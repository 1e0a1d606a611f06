import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { startEmbeddedS3, type EmbeddedS3 } from '@productgen/embedded-s3';
import { AppError, createObjectStore, type ObjectStore } from '@productgen/service-kit';

jest.setTimeout(60_000);

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('createObjectStore (against the embedded S3 server)', () => {
  let dataDir: string;
  let s3: EmbeddedS3;
  let store: ObjectStore;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'service-kit-s3-'));
    s3 = await startEmbeddedS3({ dataDir });
    store = createObjectStore({
      endpoint: s3.endpoint,
      accessKey: s3.accessKey,
      secretKey: s3.secretKey,
      bucket: 'generated-images',
    });
    await store.ensureBucket();
  });
  afterAll(async () => {
    await s3.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('ensureBucket is idempotent and ping succeeds once the bucket exists', async () => {
    await store.ensureBucket();
    await expect(store.ping()).resolves.toBeUndefined();
    const other = createObjectStore({ ...s3, bucket: 'never-created' });
    await expect(other.ping()).rejects.toThrow('bucket never-created does not exist');
  });

  it('ensureBucket succeeds for every instance that starts at the same time', async () => {
    // Services start side by side in distributed mode; all of them find the bucket missing and try to create it.
    const instances = Array.from({ length: 6 }, () => createObjectStore({ ...s3, bucket: 'created-together' }));
    await expect(Promise.all(instances.map((instance) => instance.ensureBucket()))).resolves.toHaveLength(6);
    await expect(instances[0]!.ping()).resolves.toBeUndefined();
  });

  it('puts buffers and streams, stats and reads them back', async () => {
    await store.putObject('users/u1/a.json', Buffer.from('{"a":1}'), {
      contentType: 'application/json',
      metadata: { 'generation-id': 'g-1' },
    });
    await store.putObject('users/u1/b.txt', Readable.from(['stream ', 'of ', 'text']), { contentType: 'text/plain' });

    expect(await store.stat('users/u1/a.json')).toMatchObject({
      key: 'users/u1/a.json',
      size: 7,
      contentType: 'application/json',
      metadata: expect.objectContaining({ 'generation-id': 'g-1' }),
    });
    expect(await readAll(await store.getObjectStream('users/u1/a.json'))).toBe('{"a":1}');
    expect(await readAll(await store.getObjectStream('users/u1/b.txt'))).toBe('stream of text');
  });

  it('reads a byte range of an object (a ranged GET)', async () => {
    await store.putObject('ranges/digits.txt', Buffer.from('0123456789'), { contentType: 'text/plain' });
    expect(await readAll(await store.getObjectRange('ranges/digits.txt', 3, 4))).toBe('3456');
    expect(await readAll(await store.getObjectRange('ranges/digits.txt', 8, 2))).toBe('89');
  });

  it('reports absent objects: stat → null, read → 404 AppError', async () => {
    expect(await store.stat('users/u1/missing.png')).toBeNull();
    const read = store.getObjectStream('users/u1/missing.png');
    await expect(read).rejects.toBeInstanceOf(AppError);
    await expect(read).rejects.toMatchObject({ status: 404 });
  });

  it('removes objects, and removing a missing one is fine', async () => {
    await store.putObject('tmp/x.bin', Buffer.from([1, 2, 3]), { contentType: 'application/octet-stream' });
    await store.remove('tmp/x.bin');
    expect(await store.stat('tmp/x.bin')).toBeNull();
    await expect(store.remove('tmp/x.bin')).resolves.toBeUndefined();
  });

  it('presigns only with a bounded expiry, and the URL serves the object', async () => {
    await store.putObject('share/p.txt', Buffer.from('shared'), { contentType: 'text/plain' });
    for (const expiry of [0, 1.5, 3601, Number.NaN]) {
      await expect(store.presignGet('share/p.txt', expiry)).rejects.toThrow(RangeError);
    }
    const url = await store.presignGet('share/p.txt', 60);
    expect(url).toContain('X-Amz-Expires=60');
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('shared');
  });

  it('refuses keys that are empty or look like paths', async () => {
    for (const key of ['', '/abs', 'a/../b', 'a//b', 'a/./b', 'bad\nkey']) {
      await expect(store.putObject(key, Buffer.from('x'), { contentType: 'text/plain' })).rejects.toThrow(
        'Invalid object key',
      );
    }
  });

  it('refuses an endpoint that is not an http(s) URL', () => {
    expect(() => createObjectStore({ ...s3, endpoint: '127.0.0.1:9000', bucket: 'b' })).toThrow(/S3 endpoint must/);
    expect(() => createObjectStore({ ...s3, endpoint: 'ftp://127.0.0.1', bucket: 'b' })).toThrow(/http or https/);
  });
});
