import { Transform, type TransformCallback } from 'node:stream';
import { classifyEntry } from '../domain/zip-rules';

/** Record signatures (APPNOTE 4.3.7, 4.3.9, 4.3.12). */
const LOCAL_HEADER_SIGNATURE = 0x04034b50;
const CENTRAL_HEADER_SIGNATURE = 0x02014b50;
const DATA_DESCRIPTOR_SIGNATURE = 0x08074b50;
/** The local header's fixed part. */
const LOCAL_HEADER_BYTES = 30;
/** General purpose flag bit 3: the sizes follow the data in a data descriptor (streamed zips, macOS, Java). */
const DATA_DESCRIPTOR_FLAG = 0x8;
/** A size of 0xffffffff means the real one is in the ZIP64 extra field (APPNOTE 4.5.3). */
const ZIP64_MARKER = 0xffffffff;

/** The data descriptor's four forms (APPNOTE 4.3.9): its signature is optional, its sizes 4 or 8 (ZIP64) bytes. */
const DESCRIPTOR_FORMS = [
  { bytes: 16, signed: true, sizeBytes: 4 },
  { bytes: 12, signed: false, sizeBytes: 4 },
  { bytes: 24, signed: true, sizeBytes: 8 },
  { bytes: 20, signed: false, sizeBytes: 8 },
] as const;
const SHORTEST_DESCRIPTOR = 12;
/** Bytes kept between chunks while looking for a descriptor: the longest one and a signature cut by the chunk's end. */
const DESCRIPTOR_SEARCH_OVERLAP = 24 + 3;
/** Where the next record may start ("PK"); its two further bytes name it. */
const RECORD_MARK = Buffer.from('PK', 'latin1');

type Mode = 'header' | 'data' | 'descriptor' | 'done';

/**
 * Passes a zip through unchanged while counting its image entries from their local headers as they arrive, so a
 * batch that needs more credits than the account has is refused long before the zip is read in full.
 *
 * An entry's local header names it, so each image is counted when its header arrives. To find the next header the
 * entry's data is passed over: its size is in the local header, or, for an entry whose sizes follow its data in a
 * data descriptor (flag bit 3: streamed zips, macOS, Java), the data ends where a descriptor whose compressed size
 * equals the bytes since the data began is followed by the next local header or the central directory (any method,
 * the descriptor signed or not, ZIP64 or not). The count is complete at the central directory. At bytes that are
 * not a local header (data before the first entry, a malformed zip) or at a local header whose sizes are in a ZIP64
 * extra field (over 4 GiB, or a writer forcing ZIP64) counting stops with a lower bound, and the batch's
 * reservation still checks the full count. Memory stays bounded: a local header at most.
 *
 * `onImage` is called with the count so far after each image entry; an error it throws fails the stream.
 */
export class ImageCountWatch extends Transform {
  private images = 0;
  private mode: Mode = 'header';
  /** Bytes of an entry's data still to pass before the next local header ('data'). */
  private skip = 0;
  /** Where the entry being searched for its descriptor began its data, counted from the zip's start ('descriptor'). */
  private dataStart = 0;
  /** Bytes carried over from earlier chunks (a header read in part, or the end of the data searched so far). */
  private carry: Buffer = Buffer.alloc(0);
  /** The position of `carry`'s first byte (or of the next chunk's, with nothing carried) in the zip. */
  private carryStart = 0;

  constructor(private readonly onImage: (images: number) => void) {
    super();
  }

  /** The image entries counted so far. */
  get imageCount(): number {
    return this.images;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      if (this.mode !== 'done') this.countEntries(chunk);
      callback(null, chunk);
    } catch (error) {
      callback(error as Error);
    }
  }

  private countEntries(chunk: Buffer): void {
    const data = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    const start = this.carryStart;
    let offset = 0;
    let keepFrom = data.length;
    while (this.mode !== 'done' && offset < data.length) {
      if (this.mode === 'data') {
        const passed = Math.min(this.skip, data.length - offset);
        this.skip -= passed;
        offset += passed;
        if (this.skip === 0) this.mode = 'header';
        continue;
      }
      const next =
        this.mode === 'header' ? this.readHeader(data, offset, start) : this.findDataEnd(data, offset, start);
      if (next === undefined) {
        // More bytes needed: keep the header read in part, or the end of the data searched so far.
        keepFrom = this.mode === 'header' ? offset : Math.max(0, data.length - DESCRIPTOR_SEARCH_OVERLAP);
        break;
      }
      offset = next;
    }
    if (this.mode === 'done') keepFrom = data.length;
    this.carry = data.subarray(keepFrom);
    this.carryStart = start + keepFrom;
  }

  /** Reads the record at `offset`; the offset after a local header, or undefined when more bytes are needed. */
  private readHeader(data: Buffer, offset: number, start: number): number | undefined {
    if (data.length - offset < LOCAL_HEADER_BYTES) return undefined;
    if (data.readUInt32LE(offset) !== LOCAL_HEADER_SIGNATURE) return this.finish();
    const flags = data.readUInt16LE(offset + 6);
    const compressedSize = data.readUInt32LE(offset + 18);
    const nameLength = data.readUInt16LE(offset + 26);
    const extraLength = data.readUInt16LE(offset + 28);
    const headerLength = LOCAL_HEADER_BYTES + nameLength + extraLength;
    if (data.length - offset < headerLength) return undefined;
    const nameStart = offset + LOCAL_HEADER_BYTES;
    if (classifyEntry(data.toString('utf8', nameStart, nameStart + nameLength)).kind === 'image') {
      this.images += 1;
      this.onImage(this.images);
    }
    const dataOffset = offset + headerLength;
    if (flags & DATA_DESCRIPTOR_FLAG) {
      this.mode = 'descriptor';
      this.dataStart = start + dataOffset;
      return dataOffset;
    }
    // Sizes in a ZIP64 extra field of the local header (entries over 4 GiB, or a writer forcing ZIP64): not counted on.
    if (compressedSize === ZIP64_MARKER) return this.finish();
    this.mode = compressedSize > 0 ? 'data' : 'header';
    this.skip = compressedSize;
    return dataOffset;
  }

  /**
   * Looks from `offset` for the end of the current entry's data: a data descriptor naming the bytes since the data
   * began, then the next local header or the central directory. The offset of that record, or undefined.
   */
  private findDataEnd(data: Buffer, offset: number, start: number): number | undefined {
    let at = Math.max(offset, this.dataStart + SHORTEST_DESCRIPTOR - start);
    for (;;) {
      at = data.indexOf(RECORD_MARK, at);
      if (at < 0 || at + 4 > data.length) return undefined;
      const signature = data.readUInt32LE(at);
      if (
        (signature === LOCAL_HEADER_SIGNATURE || signature === CENTRAL_HEADER_SIGNATURE) &&
        this.descriptorEndsAt(data, at, start)
      ) {
        if (signature === CENTRAL_HEADER_SIGNATURE) return this.finish();
        this.mode = 'header';
        return at;
      }
      at += 1;
    }
  }

  /** Whether the bytes before `end` are a data descriptor of the entry whose data began at `dataStart`. */
  private descriptorEndsAt(data: Buffer, end: number, start: number): boolean {
    const searched = start + end - this.dataStart;
    return DESCRIPTOR_FORMS.some((form) => {
      const at = end - form.bytes;
      if (at < 0 || searched < form.bytes) return false;
      if (form.signed && data.readUInt32LE(at) !== DATA_DESCRIPTOR_SIGNATURE) return false;
      const sizeAt = at + (form.signed ? 8 : 4);
      const compressedSize = form.sizeBytes === 4 ? data.readUInt32LE(sizeAt) : Number(data.readBigUInt64LE(sizeAt));
      return compressedSize === searched - form.bytes;
    });
  }

  /** Counting ends: the central directory (the count is complete) or bytes that are not a zip's records. */
  // The offset it returns is past any chunk: nothing more is read.
  private finish(): number {
    this.mode = 'done';
    return Number.MAX_SAFE_INTEGER;
  }
}
