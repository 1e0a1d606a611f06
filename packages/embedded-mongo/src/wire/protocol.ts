import { BSON } from 'bson';
import { MAX_BSON_OBJECT_SIZE } from '../commands/admin';
import { CommandError } from '../errors';
import { DESERIALIZE_OPTIONS, type Doc, isPlainObject } from '../values';

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_COMPRESSED = 2012;
export const OP_MSG = 2013;

export const HEADER_BYTES = 16;
/** Command bodies may exceed the document limit slightly (the envelope around a max-size document). */
const MAX_COMMAND_BODY_BYTES = MAX_BSON_OBJECT_SIZE + 16 * 1024;

const MSG_CHECKSUM_PRESENT = 1 << 0;
const MSG_MORE_TO_COME = 1 << 1;
/** Bits 0-15 are "required": a receiver must reject flags it does not know there. */
const MSG_REQUIRED_BITS_MASK = 0xffff;
const MSG_KNOWN_REQUIRED_BITS = MSG_CHECKSUM_PRESENT | MSG_MORE_TO_COME;

const OP_REPLY_QUERY_FAILURE = 1 << 1;

export interface MessageHeader {
  length: number;
  requestId: number;
  responseTo: number;
  opCode: number;
}

export function readHeader(buf: Buffer): MessageHeader {
  return {
    length: buf.readInt32LE(0),
    requestId: buf.readInt32LE(4),
    responseTo: buf.readInt32LE(8),
    opCode: buf.readInt32LE(12),
  };
}

export interface ParsedCommand {
  db: string;
  command: Doc;
  /** OP_MSG moreToCome: the client expects no reply. */
  moreToCome: boolean;
}

function protocolError(message: string): CommandError {
  return new CommandError('ProtocolError', message);
}

/** Decodes one BSON document that must occupy exactly `[start, start+declared length)` within `end`. */
function readDocument(buf: Buffer, start: number, end: number, maxBytes: number): { doc: Doc; next: number } {
  if (end - start < 5) throw protocolError('truncated BSON document');
  const size = buf.readInt32LE(start);
  if (size < 5 || start + size > end)
    throw new CommandError('InvalidBSON', 'BSON document length does not fit the message');
  if (size > maxBytes) {
    throw new CommandError(
      'BSONObjectTooLarge',
      `BSONObj size: ${size} (0x${size.toString(16)}) is invalid. Size must be between 0 and ${MAX_BSON_OBJECT_SIZE}(16MB)`,
    );
  }
  let doc: Doc;
  try {
    doc = BSON.deserialize(buf.subarray(start, start + size), DESERIALIZE_OPTIONS);
  } catch (error) {
    throw new CommandError('InvalidBSON', `invalid BSON: ${(error as Error).message}`);
  }
  return { doc, next: start + size };
}

function readCString(buf: Buffer, start: number, end: number): { value: string; next: number } {
  const zero = buf.indexOf(0, start);
  if (zero < 0 || zero >= end) throw protocolError('unterminated C string');
  return { value: buf.toString('utf8', start, zero), next: zero + 1 };
}

/** Parses OP_MSG: flags, one kind-0 body and any kind-1 document sequences (merged into the body as arrays). */
export function parseOpMsg(message: Buffer): ParsedCommand {
  if (message.length < HEADER_BYTES + 5) throw protocolError('OP_MSG too short');
  const flags = message.readUInt32LE(HEADER_BYTES);
  if ((flags & MSG_REQUIRED_BITS_MASK & ~MSG_KNOWN_REQUIRED_BITS) !== 0) {
    throw protocolError(`Unrecognized OP_MSG flags: ${flags.toString(16)}`);
  }
  const end = flags & MSG_CHECKSUM_PRESENT ? message.length - 4 : message.length;
  if (end < HEADER_BYTES + 5) throw protocolError('OP_MSG too short for its checksum');
  let offset = HEADER_BYTES + 4;
  let body: Doc | undefined;
  const sequences: [string, Doc[]][] = [];
  while (offset < end) {
    const kind = message[offset++];
    if (kind === 0) {
      if (body) throw protocolError('OP_MSG contains more than one body section');
      const read = readDocument(message, offset, end, MAX_COMMAND_BODY_BYTES);
      body = read.doc;
      offset = read.next;
    } else if (kind === 1) {
      if (end - offset < 4) throw protocolError('truncated document sequence');
      const size = message.readInt32LE(offset);
      const sectionEnd = offset + size;
      if (size < 5 || sectionEnd > end) throw protocolError('document sequence length does not fit the message');
      const id = readCString(message, offset + 4, sectionEnd);
      const docs: Doc[] = [];
      let cursor = id.next;
      while (cursor < sectionEnd) {
        const read = readDocument(message, cursor, sectionEnd, MAX_BSON_OBJECT_SIZE);
        docs.push(read.doc);
        cursor = read.next;
      }
      sequences.push([id.value, docs]);
      offset = sectionEnd;
    } else {
      throw protocolError(`Unknown OP_MSG section kind ${String(kind)}`);
    }
  }
  if (!body) throw protocolError('OP_MSG has no body section');
  for (const [field, docs] of sequences) {
    if (field in body) throw protocolError(`Duplicate field '${field}' in OP_MSG body and document sequence`);
    body[field] = docs;
  }
  const db = body.$db;
  if (typeof db !== 'string' || db === '') throw new CommandError('InvalidNamespace', 'OP_MSG requires a $db argument');
  return { db, command: body, moreToCome: (flags & MSG_MORE_TO_COME) !== 0 };
}

export interface ParsedQuery {
  collection: string;
  query: Doc;
}

/** Parses legacy OP_QUERY (drivers only use it on `<db>.$cmd` for the initial handshake). */
export function parseOpQuery(message: Buffer): ParsedQuery {
  const end = message.length;
  const name = readCString(message, HEADER_BYTES + 4, end);
  const start = name.next + 8; // numberToSkip, numberToReturn
  if (start > end) throw protocolError('OP_QUERY too short');
  const { doc } = readDocument(message, start, end, MAX_COMMAND_BODY_BYTES);
  return { collection: name.value, query: doc };
}

/** `{$query: {...}, $readPreference}` wrappers from legacy clients carry the command inside. */
export function unwrapLegacyQuery(query: Doc): Doc {
  const first = Object.keys(query)[0];
  const inner = first === '$query' || first === 'query' ? query[first] : undefined;
  return isPlainObject(inner) ? inner : query;
}

/** Reads the OP_MSG flags, or undefined when the message is too short to have them. */
export function opMsgFlags(message: Buffer): number | undefined {
  return message.length >= HEADER_BYTES + 4 ? message.readUInt32LE(HEADER_BYTES) : undefined;
}

export function isMoreToCome(flags: number | undefined): boolean {
  return flags !== undefined && (flags & MSG_MORE_TO_COME) !== 0;
}

function header(length: number, requestId: number, responseTo: number, opCode: number): Buffer {
  const buf = Buffer.allocUnsafe(HEADER_BYTES);
  buf.writeInt32LE(length, 0);
  buf.writeInt32LE(requestId, 4);
  buf.writeInt32LE(responseTo, 8);
  buf.writeInt32LE(opCode, 12);
  return buf;
}

export function encodeOpMsg(reply: Doc, requestId: number, responseTo: number): Buffer {
  const body = BSON.serialize(reply);
  const prefix = Buffer.allocUnsafe(5);
  prefix.writeUInt32LE(0, 0);
  prefix[4] = 0;
  return Buffer.concat([header(HEADER_BYTES + 5 + body.length, requestId, responseTo, OP_MSG), prefix, body]);
}

export function encodeOpReply(reply: Doc, requestId: number, responseTo: number, queryFailure = false): Buffer {
  const body = BSON.serialize(reply);
  const fields = Buffer.alloc(20);
  fields.writeInt32LE(queryFailure ? OP_REPLY_QUERY_FAILURE : 0, 0);
  // cursorId (8 bytes) = 0, startingFrom = 0
  fields.writeInt32LE(1, 16);
  return Buffer.concat([header(HEADER_BYTES + 20 + body.length, requestId, responseTo, OP_REPLY), fields, body]);
}
