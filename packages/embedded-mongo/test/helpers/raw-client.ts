import { connect, type Socket } from 'node:net';
import { BSON, type Document } from 'bson';

const OP_MSG = 2013;
const OP_QUERY = 2004;

export interface RawReply {
  opCode: number;
  responseTo: number;
  doc: Document;
}

/** A minimal wire-protocol client for sending hand-made (and deliberately broken) messages. */
export class RawClient {
  private buffer = Buffer.alloc(0);
  private waiting: (() => void) | undefined;
  private closedFlag = false;
  readonly closed: Promise<void>;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.waiting?.();
    });
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) =>
      socket.on('close', () => {
        this.closedFlag = true;
        this.waiting?.();
        resolve();
      }),
    );
  }

  static async connect(url: string): Promise<RawClient> {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new RawClient(socket);
  }

  get isClosed(): boolean {
    return this.closedFlag;
  }

  send(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  /** Resolves with the next complete reply, or undefined if the server closed the connection first. */
  async read(): Promise<RawReply | undefined> {
    for (;;) {
      if (this.buffer.length >= 4) {
        const length = this.buffer.readInt32LE(0);
        if (this.buffer.length >= length) {
          const message = this.buffer.subarray(0, length);
          this.buffer = this.buffer.subarray(length);
          const opCode = message.readInt32LE(12);
          const docStart = opCode === OP_MSG ? 21 : 36;
          return { opCode, responseTo: message.readInt32LE(8), doc: BSON.deserialize(message.subarray(docStart)) };
        }
      }
      if (this.closedFlag) return undefined;
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }

  close(): void {
    this.socket.destroy();
  }
}

function header(length: number, requestId: number, opCode: number): Buffer {
  const buf = Buffer.alloc(16);
  buf.writeInt32LE(length, 0);
  buf.writeInt32LE(requestId, 4);
  buf.writeInt32LE(0, 8);
  buf.writeInt32LE(opCode, 12);
  return buf;
}

/** Builds an OP_MSG with a body and optional document sequences. */
export function opMsg(
  requestId: number,
  body: Document,
  options: { flags?: number; sequences?: Record<string, Buffer[]>; checksum?: boolean } = {},
): Buffer {
  const parts: Buffer[] = [Buffer.from([0]), Buffer.from(BSON.serialize(body))];
  for (const [id, docs] of Object.entries(options.sequences ?? {})) {
    const name = Buffer.from(`${id}\0`);
    const size = Buffer.alloc(4);
    size.writeInt32LE(4 + name.length + docs.reduce((n, d) => n + d.length, 0));
    parts.push(Buffer.from([1]), size, name, ...docs);
  }
  if (options.checksum) parts.push(Buffer.alloc(4));
  const flags = Buffer.alloc(4);
  flags.writeUInt32LE((options.flags ?? 0) | (options.checksum ? 1 : 0));
  const payload = Buffer.concat([flags, ...parts]);
  return Buffer.concat([header(16 + payload.length, requestId, OP_MSG), payload]);
}

export function opQuery(requestId: number, collection: string, query: Document): Buffer {
  const name = Buffer.from(`${collection}\0`);
  const numbers = Buffer.alloc(8);
  numbers.writeInt32LE(-1, 4);
  const payload = Buffer.concat([Buffer.alloc(4), name, numbers, Buffer.from(BSON.serialize(query))]);
  return Buffer.concat([header(16 + payload.length, requestId, OP_QUERY), payload]);
}

export function rawMessage(requestId: number, opCode: number, payload: Buffer): Buffer {
  return Buffer.concat([header(16 + payload.length, requestId, opCode), payload]);
}
