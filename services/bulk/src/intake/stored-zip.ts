import { PassThrough, Readable } from 'node:stream';
import yauzl from 'yauzl';
import { AppError, type ObjectStore } from '@productgen/service-kit';
import { unsafeNameMessage, ZIP_UNREADABLE_MESSAGE } from '../domain/zip-rules';

/** The central directory sits at the end: read this much of the tail once and serve it from memory. */
const TAIL_BYTES = 512 * 1024;

/**
 * The object store failed to answer (restarting, unreachable, a connection cut mid-read): a reason to try again
 * later, never a verdict on the zip. The reader tags every storage failure with this, so callers tell "the zip is
 * bad" (refuse the product) from "storage is down" (stop and resume later).
 */
export class StorageUnavailableError extends AppError {
  constructor(cause: unknown) {
    super(503, 'The uploaded zip file cannot be read just now. Please try again in a moment.', undefined, { cause });
    this.name = 'StorageUnavailableError';
  }
}

export const isStorageUnavailable = (error: unknown): error is StorageUnavailableError =>
  error instanceof StorageUnavailableError;

/** Runs a call to the object store, tagging its failure as storage trouble (an AppError of its own, e.g. 404, stays). */
async function fromStorage<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw error instanceof AppError ? error : new StorageUnavailableError(error);
  }
}

/** yauzl's own refusals of names that point outside the extraction folder (it checks every name it decodes). */
const UNSAFE_NAME_ERROR = /^(absolute path|invalid relative path|invalid characters in fileName): (.*)$/s;

/**
 * yauzl reads through this: a ranged GET on the stored zip per read, except inside the prefetched tail (the central
 * directory), so listing 200 entries costs one request rather than 400.
 */
class StoredObjectReader extends yauzl.RandomAccessReader {
  constructor(
    private readonly store: ObjectStore,
    private readonly key: string,
    private readonly tail: Buffer,
    private readonly tailStart: number,
  ) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    if (start >= this.tailStart) {
      return Readable.from([this.tail.subarray(start - this.tailStart, end - this.tailStart)]);
    }
    // The range lies inside the stored object (its size came from the store), so an error or a short answer is the
    // store's trouble, not the zip's: it fails as StorageUnavailableError, before yauzl could call it a bad zip.
    const out = new PassThrough();
    const expected = end - start;
    let received = 0;
    fromStorage(() => this.store.getObjectRange(this.key, start, expected)).then(
      (stream) => {
        stream.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (!out.write(chunk)) stream.pause();
        });
        out.on('drain', () => stream.resume());
        stream.on('error', (error) => out.destroy(new StorageUnavailableError(error)));
        stream.on('end', () => {
          if (received === expected) out.end();
          else out.destroy(new StorageUnavailableError(new Error(`short read: ${received} of ${expected} bytes`)));
        });
        out.on('close', () => stream.destroy());
      },
      (error: unknown) => out.destroy(error as Error),
    );
    return out;
  }
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function unreadable(cause?: unknown): AppError {
  return new AppError(400, ZIP_UNREADABLE_MESSAGE, undefined, { cause });
}

/** A refusal of yauzl's, in the product's words. */
function zipError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const unsafe = UNSAFE_NAME_ERROR.exec(error instanceof Error ? error.message : '');
  if (unsafe) return AppError.badRequest(unsafeNameMessage(unsafe[2]!.slice(0, 200)));
  return unreadable(error);
}

/**
 * A zip kept in the object store, read in place with yauzl (random access: the central directory first, then each
 * entry by its offset), so neither the upload nor its content is ever held whole in memory.
 */
export class StoredZip {
  private constructor(private readonly zip: yauzl.ZipFile) {}

  static async open(store: ObjectStore, key: string): Promise<StoredZip> {
    const info = await fromStorage(() => store.stat(key));
    if (!info || info.size === 0) throw unreadable();
    const tailStart = Math.max(0, info.size - TAIL_BYTES);
    const tail = await fromStorage(async () =>
      readAll(await store.getObjectRange(key, tailStart, info.size - tailStart)),
    );
    const reader = new StoredObjectReader(store, key, tail, tailStart);
    const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => {
      yauzl.fromRandomAccessReader(
        reader,
        info.size,
        { lazyEntries: true, autoClose: false, decodeStrings: true, validateEntrySizes: true },
        (error, opened) => (error ? reject(zipError(error)) : resolve(opened)),
      );
    });
    return new StoredZip(zip);
  }

  /** How many entries the end-of-directory record declares: known before a single entry is read. */
  get declaredEntryCount(): number {
    return this.zip.entryCount;
  }

  /** Every entry of the central directory, in order; a name that escapes the folder is refused here. */
  async listEntries(): Promise<yauzl.Entry[]> {
    const entries: yauzl.Entry[] = [];
    await new Promise<void>((resolve, reject) => {
      const onEntry = (entry: yauzl.Entry) => {
        entries.push(entry);
        this.zip.readEntry();
      };
      const cleanup = () => {
        this.zip.off('entry', onEntry);
        this.zip.off('end', onEnd);
        this.zip.off('error', onError);
      };
      const onEnd = () => {
        cleanup();
        resolve();
      };
      const onError = (error: unknown) => {
        cleanup();
        reject(zipError(error));
      };
      this.zip.on('entry', onEntry);
      this.zip.once('end', onEnd);
      this.zip.once('error', onError);
      this.zip.readEntry();
    });
    return entries;
  }

  /**
   * The entry's bytes, counted while they stream: more than `maxBytes`, or a size other than the directory
   * declared (yauzl checks that), fails before more is read.
   */
  async readEntry(entry: yauzl.Entry, maxBytes: number, tooLarge: () => AppError): Promise<Buffer> {
    const stream = await new Promise<Readable>((resolve, reject) => {
      this.zip.openReadStream(entry, (error, opened) => (error ? reject(zipError(error)) : resolve(opened)));
    });
    const chunks: Buffer[] = [];
    let bytes = 0;
    try {
      for await (const chunk of stream) {
        bytes += (chunk as Buffer).length;
        if (bytes > maxBytes) {
          stream.destroy();
          throw tooLarge();
        }
        chunks.push(chunk as Buffer);
      }
    } catch (error) {
      throw zipError(error);
    }
    return Buffer.concat(chunks);
  }

  close(): void {
    this.zip.close();
  }
}
