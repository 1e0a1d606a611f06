import { Readable } from 'node:stream';
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import yazl from 'yazl';

/** How yazl writes the entries: from streams, their sizes follow the data in data descriptors (flag bit 3). */
export interface ZipOptions {
  streamed?: boolean;
  /** Deflate (default) or store. */
  compress?: boolean;
  forceZip64Format?: boolean;
}

/** A well-formed zip made by yazl, the way a user's zip tool makes one. */
export function makeZip(files: Array<{ name: string; data: Buffer }>, options: ZipOptions = {}): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const entryOptions = { compress: options.compress ?? true, forceZip64Format: options.forceZip64Format ?? false };
  for (const file of files) {
    if (options.streamed) zip.addReadStream(Readable.from([file.data]), file.name, entryOptions);
    else zip.addBuffer(file.data, file.name, entryOptions);
  }
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

export interface CraftedEntry {
  name: string;
  data: Buffer;
  /** Deflate the data (default: stored). */
  deflate?: boolean;
  /** Sets the "encrypted" flag (the data is not really encrypted: the flag is what a reader must refuse). */
  encrypted?: boolean;
  /** What the central directory claims the uncompressed size is (a lying header). */
  declaredSize?: number;
  /** Points this entry's directory record at the local header of an earlier entry (overlapping entries). */
  sameDataAs?: number;
}

/**
 * Writes a zip byte by byte (APPNOTE.TXT 4.3) so tests can make the hostile archives no zip tool makes: names with
 * "../", encryption flags, lying sizes and directory records that share one entry's bytes.
 */
export function craftZip(entries: CraftedEntry[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  const offsets: number[] = [];
  let offset = 0;
  entries.forEach((entry) => {
    const name = Buffer.from(entry.name, 'utf8');
    const packed = entry.deflate ? deflateRawSync(entry.data) : entry.data;
    // Traditional PKWARE encryption puts a 12-byte header before the data (APPNOTE 6.1.3).
    const body = entry.encrypted ? Buffer.concat([Buffer.alloc(12, 0x5a), packed]) : packed;
    const method = entry.deflate ? 8 : 0;
    const flags = (entry.encrypted ? 0x1 : 0) | 0x800;
    const crc = crc32(entry.data);
    const size = entry.declaredSize ?? entry.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const localOffset = entry.sameDataAs !== undefined ? offsets[entry.sameDataAs]! : offset;
    offsets.push(localOffset);
    if (entry.sameDataAs === undefined) {
      locals.push(local, name, body);
      offset += local.length + name.length + body.length;
    }
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(20, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(flags, 8);
    record.writeUInt16LE(method, 10);
    record.writeUInt32LE(crc, 16);
    record.writeUInt32LE(body.length, 20);
    record.writeUInt32LE(size, 24);
    record.writeUInt16LE(name.length, 28);
    record.writeUInt32LE(localOffset, 42);
    central.push(record, name);
  });
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/**
 * multipart/form-data of a batch upload as the browser sends it. "Check uncertain products before rendering" is
 * off unless a test sets `checkUncertain`: these tests expect every product to render without a seller's check
 * (the check itself is tested by services/bulk/test/batch-review.test.ts and generation's batch-check.test.ts).
 */
export function batchForm(zip: Buffer, fields: Record<string, string>, type = 'application/zip'): FormData {
  const form = new FormData();
  form.append('zipFile', new Blob([new Uint8Array(zip)], { type }), 'images.zip');
  for (const [name, value] of Object.entries({ checkUncertain: 'false', ...fields })) form.append(name, value);
  return form;
}

export interface ZipEntry {
  name: string;
  data: Buffer;
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_DIRECTORY_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;

/**
 * The entries of a zip archive, read through its central directory (the layout of APPNOTE.TXT §4.3), which is
 * what an unzip tool trusts. Stored and deflated entries; no zip64, multi-disk or encryption, none of which a
 * download of a few images needs.
 */
export function readZipEntries(zip: Buffer): ZipEntry[] {
  // The end record is 22 bytes plus a comment of at most 65535 bytes, at the very end.
  let end = -1;
  for (let offset = zip.length - 22; offset >= Math.max(0, zip.length - 22 - 0xffff); offset -= 1) {
    if (zip.readUInt32LE(offset) === END_OF_CENTRAL_DIRECTORY) {
      end = offset;
      break;
    }
  }
  if (end < 0) throw new Error('not a zip archive: no end of central directory record');
  const count = zip.readUInt16LE(end + 10);
  let cursor = zip.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let index = 0; index < count; index += 1) {
    if (zip.readUInt32LE(cursor) !== CENTRAL_DIRECTORY_HEADER) throw new Error(`zip entry ${index}: bad header`);
    const method = zip.readUInt16LE(cursor + 10);
    const compressedSize = zip.readUInt32LE(cursor + 20);
    const nameLength = zip.readUInt16LE(cursor + 28);
    const extraLength = zip.readUInt16LE(cursor + 30);
    const commentLength = zip.readUInt16LE(cursor + 32);
    const localOffset = zip.readUInt32LE(cursor + 42);
    const name = zip.toString('utf8', cursor + 46, cursor + 46 + nameLength);
    if (zip.readUInt32LE(localOffset) !== LOCAL_FILE_HEADER) throw new Error(`zip entry ${name}: bad local header`);
    const dataStart = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28);
    const raw = zip.subarray(dataStart, dataStart + compressedSize);
    if (method !== STORED && method !== DEFLATED) throw new Error(`zip entry ${name}: unsupported method ${method}`);
    entries.push({ name, data: method === STORED ? Buffer.from(raw) : inflateRawSync(raw) });
    cursor += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
