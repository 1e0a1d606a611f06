import { randomBytes } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { makeZip } from '@productgen/test-kit/zips';
import { classifyEntry } from '../src/domain/zip-rules';
import { ImageCountWatch } from '../src/intake/image-count-watch';

/**
 * The streaming image count behind the credit check of a batch upload (security review item 5: credits checked
 * before a zip is read in full). Zips whose local headers carry no sizes (flag bit 3, the sizes in a data descriptor
 * after the data: what streaming writers, macOS's Archive Utility and Java write) are counted too, not only at the
 * reservation after the whole zip was read. The expected count is the central directory's, read by yauzl.
 */

interface ListedEntry {
  fileName: string;
  generalPurposeBitFlag: number;
  localHeaderOffset: number;
  compressedSize: number;
}

/** The central directory as yauzl reads it. */
function listEntries(zip: Buffer): Promise<ListedEntry[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: false }, (error, file) => {
      if (error || !file) return reject(error ?? new Error('no zip'));
      const entries: ListedEntry[] = [];
      file.on('entry', (entry: yauzl.Entry) =>
        entries.push({
          fileName: entry.fileName,
          generalPurposeBitFlag: entry.generalPurposeBitFlag,
          localHeaderOffset: entry.relativeOffsetOfLocalHeader,
          compressedSize: entry.compressedSize,
        }),
      );
      file.once('end', () => resolve(entries));
      file.once('error', reject);
    });
  });
}

async function imagesInDirectory(zip: Buffer): Promise<number> {
  return (await listEntries(zip)).filter((entry) => classifyEntry(entry.fileName).kind === 'image').length;
}

/**
 * The same zip with its data descriptors' optional signature left out (the 12-byte form some writers use). Only
 * the local records matter to the watch: the central directory's offsets are left as they were.
 */
async function withUnsignedDescriptors(zip: Buffer): Promise<Buffer> {
  const parts: Buffer[] = [];
  let from = 0;
  for (const entry of await listEntries(zip)) {
    // yazl's local headers have no extra field.
    const descriptor = entry.localHeaderOffset + 30 + Buffer.byteLength(entry.fileName) + entry.compressedSize;
    expect(zip.readUInt32LE(descriptor)).toBe(0x08074b50);
    parts.push(zip.subarray(from, descriptor));
    from = descriptor + 4;
  }
  parts.push(zip.subarray(from));
  return Buffer.concat(parts);
}

/** Passes the zip through the watch in chunks of `chunkBytes`, collecting what comes out into `passed`. */
function runWatch(zip: Buffer, chunkBytes: number, watch: ImageCountWatch, passed: Buffer[]): Promise<void> {
  const chunks: Buffer[] = [];
  for (let at = 0; at < zip.length; at += chunkBytes) chunks.push(zip.subarray(at, at + chunkBytes));
  return pipeline(
    Readable.from(chunks),
    watch,
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        passed.push(chunk);
        callback();
      },
    }),
  );
}

/** The count of a zip passed through in chunks of `chunkBytes` (and passed through unchanged). */
async function countInChunks(zip: Buffer, chunkBytes: number): Promise<number> {
  const watch = new ImageCountWatch(() => undefined);
  const passed: Buffer[] = [];
  await runWatch(zip, chunkBytes, watch, passed);
  expect(Buffer.concat(passed).equals(zip)).toBe(true);
  return watch.imageCount;
}

/** Five photos, a note, a macOS resource fork and a folder's file: 5 images. */
function mixedEntries(photoBytes: number): Array<{ name: string; data: Buffer }> {
  return [
    ...Array.from({ length: 5 }, (_, index) => ({ name: `photos/photo-${index}.jpg`, data: randomBytes(photoBytes) })),
    { name: 'notes.txt', data: Buffer.from('prices in the sheet') },
    { name: '__MACOSX/photos/._photo-0.jpg', data: randomBytes(120) },
  ];
}

const CHUNK_SIZES = [1, 7, 4096, 65_536];

describe('ImageCountWatch counts image entries as a zip streams in', () => {
  test('sizes in the local headers (yazl from buffers): every image, in chunks of any size', async () => {
    const zip = await makeZip(mixedEntries(20_000), { streamed: false });
    expect((await listEntries(zip)).every((entry) => (entry.generalPurposeBitFlag & 0x8) === 0)).toBe(true);
    expect(await imagesInDirectory(zip)).toBe(5);
    for (const chunkBytes of CHUNK_SIZES) expect(await countInChunks(zip, chunkBytes)).toBe(5);
  });

  test.each([
    ['deflated, signed descriptors', { compress: true }],
    ['stored, signed descriptors', { compress: false }],
    ['deflated, ZIP64 descriptors', { compress: true, forceZip64Format: true }],
  ])('sizes in data descriptors (yazl from streams, %s): every image', async (_name, options) => {
    const zip = await makeZip(mixedEntries(20_000), { streamed: true, ...options });
    expect((await listEntries(zip)).every((entry) => (entry.generalPurposeBitFlag & 0x8) !== 0)).toBe(true);
    for (const chunkBytes of CHUNK_SIZES) expect(await countInChunks(zip, chunkBytes)).toBe(5);
  });

  test('descriptors without their optional signature: every image', async () => {
    const zip = await withUnsignedDescriptors(await makeZip(mixedEntries(20_000), { streamed: true, compress: false }));
    for (const chunkBytes of CHUNK_SIZES) expect(await countInChunks(zip, chunkBytes)).toBe(5);
  });

  test('a stored zip inside the zip (local headers and descriptors in the data) is one entry, not its contents', async () => {
    const inner = await makeZip(
      Array.from({ length: 4 }, (_, index) => ({ name: `inner-${index}.jpg`, data: randomBytes(3000) })),
      { streamed: true, compress: false },
    );
    const outer = await makeZip(
      [
        { name: 'a.jpg', data: randomBytes(2000) },
        { name: 'archive.zip', data: inner },
        { name: 'b.png', data: randomBytes(2000) },
      ],
      { streamed: true, compress: false },
    );
    expect(await imagesInDirectory(outer)).toBe(2);
    for (const chunkBytes of CHUNK_SIZES) expect(await countInChunks(outer, chunkBytes)).toBe(2);
  });

  test('a count beyond what the caller allows fails the stream long before the zip has passed', async () => {
    const zip = await makeZip(
      Array.from({ length: 6 }, (_, index) => ({ name: `photo-${index}.jpg`, data: randomBytes(1024 * 1024) })),
      { streamed: true },
    );
    const refusal = new Error('needs more credits');
    const watch = new ImageCountWatch((images) => {
      if (images > 2) throw refusal;
    });
    const passed: Buffer[] = [];
    await expect(runWatch(zip, 65_536, watch, passed)).rejects.toBe(refusal);
    const passedBytes = Buffer.concat(passed).length;
    // The third image's header comes after two photos of 1 MiB; the chunk holding it is not passed on.
    expect(passedBytes).toBeGreaterThan(2 * 1024 * 1024 - 65_536);
    expect(passedBytes).toBeLessThan(3 * 1024 * 1024);
  });

  test('bytes that are not a zip: nothing counted, everything passed through', async () => {
    expect(await countInChunks(randomBytes(100_000), 4096)).toBe(0);
  });
});
