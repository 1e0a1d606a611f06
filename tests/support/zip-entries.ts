const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_DIRECTORY_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;

/**
 * The entry names of a zip archive, read from its central directory (no ZIP64, which archives of a few images
 * never need). Throws when the bytes are not a well-formed archive: every central entry must point at a local
 * file header, so a truncated or mislabelled download fails here rather than passing as "some bytes".
 */
export function zipEntryNames(archive: Buffer): string[] {
  if (archive.length < 22 || archive.readUInt32LE(0) !== LOCAL_FILE_HEADER) {
    throw new Error('not a zip archive: it does not start with a local file header (PK\\x03\\x04)');
  }
  // The end record sits in the last 22 bytes plus an archive comment of at most 65535.
  let end = -1;
  for (let offset = archive.length - 22; offset >= Math.max(0, archive.length - 22 - 0xffff); offset -= 1) {
    if (archive.readUInt32LE(offset) === END_OF_CENTRAL_DIRECTORY) {
      end = offset;
      break;
    }
  }
  if (end < 0) throw new Error('not a zip archive: no end-of-central-directory record');
  const entries = archive.readUInt16LE(end + 10);
  let offset = archive.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let index = 0; index < entries; index += 1) {
    if (archive.readUInt32LE(offset) !== CENTRAL_DIRECTORY_HEADER) {
      throw new Error(`zip central directory entry ${index} is damaged`);
    }
    const nameLength = archive.readUInt16LE(offset + 28);
    const extraLength = archive.readUInt16LE(offset + 30);
    const commentLength = archive.readUInt16LE(offset + 32);
    const localHeader = archive.readUInt32LE(offset + 42);
    if (archive.readUInt32LE(localHeader) !== LOCAL_FILE_HEADER) {
      throw new Error(`zip entry ${index} points at no local file header`);
    }
    names.push(archive.toString('utf8', offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}
