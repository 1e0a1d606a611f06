import { Transform, type TransformCallback } from 'node:stream';
import { classifyEntry } from '../domain/zip-rules';

/** Local file header signature and its fixed part (APPNOTE 4.3.7). */
const LOCAL_HEADER_SIGNATURE = 0x04034b50;
const LOCAL_HEADER_BYTES = 30;
/** General purpose flag bit 3: sizes follow the data in a descriptor, so the data's end is unknown while streaming. */
const DATA_DESCRIPTOR_FLAG = 0x8;
/** A size of 0xffffffff means the real one is in a ZIP64 extra field. */
const ZIP64_MARKER = 0xffffffff;

/**
 * Passes a zip through unchanged while counting its image entries from their local headers as they arrive, so a
 * batch that needs more credits than the account has is refused long before the zip is read in full. Counting stops
 * (and the zip is read as before) at the central directory, or at an entry whose size is not in its local header
 * (streamed zips, ZIP64): it is a lower bound, and the batch's reservation still checks the full count.
 *
 * `onImage` is called with the count so far after each image entry; an error it throws fails the stream.
 */
export class ImageCountWatch extends Transform {
  private images = 0;
  /** Bytes of an entry's data still to pass before the next local header. */
  private skip = 0;
  /** A local header read in part. */
  private pending: Buffer = Buffer.alloc(0);
  private counting = true;

  constructor(private readonly onImage: (images: number) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      if (this.counting) this.countEntries(chunk);
      callback(null, chunk);
    } catch (error) {
      callback(error as Error);
    }
  }

  private countEntries(chunk: Buffer): void {
    let offset = 0;
    while (this.counting && offset < chunk.length) {
      if (this.skip > 0) {
        const skipped = Math.min(this.skip, chunk.length - offset);
        this.skip -= skipped;
        offset += skipped;
        continue;
      }
      const header = this.takeHeader(chunk, offset);
      if (!header) return;
      offset = header.nextOffset;
    }
  }

  /** Reads one local header (perhaps across chunks); undefined when more bytes are needed or counting ended. */
  private takeHeader(chunk: Buffer, offset: number): { nextOffset: number } | undefined {
    const available = Buffer.concat([this.pending, chunk.subarray(offset)]);
    if (available.length < LOCAL_HEADER_BYTES) return this.keep(available);
    if (available.readUInt32LE(0) !== LOCAL_HEADER_SIGNATURE) return this.stop();
    const flags = available.readUInt16LE(6);
    const compressedSize = available.readUInt32LE(18);
    const nameLength = available.readUInt16LE(26);
    const extraLength = available.readUInt16LE(28);
    if (flags & DATA_DESCRIPTOR_FLAG || compressedSize === ZIP64_MARKER) return this.stop();
    const headerLength = LOCAL_HEADER_BYTES + nameLength + extraLength;
    if (available.length < headerLength) return this.keep(available);
    const name = available.toString('utf8', LOCAL_HEADER_BYTES, LOCAL_HEADER_BYTES + nameLength);
    // Bytes of this chunk the header used (the pending part came from earlier chunks).
    const consumed = headerLength - this.pending.length;
    this.pending = Buffer.alloc(0);
    this.skip = compressedSize;
    if (classifyEntry(name).kind === 'image') {
      this.images += 1;
      this.onImage(this.images);
    }
    return { nextOffset: offset + consumed };
  }

  private keep(available: Buffer): undefined {
    this.pending = available;
    return undefined;
  }

  private stop(): undefined {
    this.counting = false;
    this.pending = Buffer.alloc(0);
    return undefined;
  }
}
