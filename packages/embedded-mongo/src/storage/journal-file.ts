import { crc32 } from 'node:zlib';
import { BSON } from 'bson';
import { DESERIALIZE_OPTIONS, type Doc } from '../values';

/**
 * On-disk record framing shared by journals and snapshots: `[u32 length][u32 crc32][BSON document]`.
 * The checksum lets recovery tell a torn or garbled tail (crash mid-write) from real records.
 */
const RECORD_HEADER_BYTES = 8;

export function frameRecord(record: Doc): Buffer {
  const body = BSON.serialize(record);
  const framed = Buffer.allocUnsafe(RECORD_HEADER_BYTES + body.length);
  framed.writeUInt32LE(body.length, 0);
  framed.writeUInt32LE(crc32(body), 4);
  framed.set(body, RECORD_HEADER_BYTES);
  return framed;
}

export interface ParsedRecords {
  records: Doc[];
  /** Bytes of the file covered by intact records. */
  validBytes: number;
  /** True when bytes after the last intact record were ignored (torn or corrupt tail). */
  truncated: boolean;
}

export function parseRecords(data: Buffer): ParsedRecords {
  const records: Doc[] = [];
  let offset = 0;
  while (offset < data.length) {
    if (data.length - offset < RECORD_HEADER_BYTES) break;
    const length = data.readUInt32LE(offset);
    const checksum = data.readUInt32LE(offset + 4);
    const start = offset + RECORD_HEADER_BYTES;
    if (length < 5 || start + length > data.length) break;
    const body = data.subarray(start, start + length);
    if (crc32(body) !== checksum) break;
    try {
      records.push(BSON.deserialize(body, DESERIALIZE_OPTIONS));
    } catch {
      break;
    }
    offset = start + length;
  }
  return { records, validBytes: offset, truncated: offset < data.length };
}
