import { HEADER_BYTES } from './protocol';

/** Raised when the byte stream cannot be split into messages any more; the connection must be closed. */
export class FramingError extends Error {
  constructor(
    message: string,
    /** requestID of the offending message when it was readable, so the error reply can answer it. */
    readonly requestId: number,
  ) {
    super(message);
    this.name = 'FramingError';
  }
}

/**
 * Splits a TCP byte stream into wire-protocol messages using the int32 length prefix. Chunks are kept in a list
 * and joined only once a whole message is present, so large messages are copied once.
 */
export class MessageFramer {
  private chunks: Buffer[] = [];
  private buffered = 0;

  constructor(private readonly maxMessageBytes: number) {}

  /** Adds received bytes; returns the messages completed by them. Throws FramingError on an impossible length. */
  push(chunk: Buffer): Buffer[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const messages: Buffer[] = [];
    while (this.buffered >= 4) {
      const length = this.peekInt32(0);
      if (length < HEADER_BYTES || length > this.maxMessageBytes) {
        const requestId = this.buffered >= 8 ? this.peekInt32(4) : 0;
        throw new FramingError(
          `recv(): message msgLen ${length} is invalid. Min ${HEADER_BYTES} Max: ${this.maxMessageBytes}`,
          requestId,
        );
      }
      if (this.buffered < length) break;
      messages.push(this.take(length));
    }
    return messages;
  }

  private peekInt32(offset: number): number {
    const first = this.chunks[0] as Buffer;
    if (first.length >= offset + 4) return first.readInt32LE(offset);
    return this.join().readInt32LE(offset);
  }

  private join(): Buffer {
    const joined = Buffer.concat(this.chunks, this.buffered);
    this.chunks = [joined];
    return joined;
  }

  private take(length: number): Buffer {
    const first = (this.chunks[0] as Buffer).length >= length ? (this.chunks[0] as Buffer) : this.join();
    const message = first.subarray(0, length);
    const rest = first.subarray(length);
    this.chunks[0] = rest;
    if (rest.length === 0) this.chunks.shift();
    this.buffered -= length;
    return message;
  }
}
