import type { Socket } from 'node:net';
import { MAX_MESSAGE_SIZE_BYTES } from '../commands/admin';
import { CommandError, toCommandError } from '../errors';
import type { Logger } from '../logger';
import type { Doc } from '../values';
import { FramingError, MessageFramer } from './framer';
import {
  encodeOpMsg,
  encodeOpReply,
  isMoreToCome,
  OP_MSG,
  OP_QUERY,
  opMsgFlags,
  parseOpMsg,
  parseOpQuery,
  readHeader,
  unwrapLegacyQuery,
} from './protocol';

export type CommandRunner = (command: Doc, db: string, connection: ClientConnection) => Promise<Doc>;

/** Pause reading from a client that pipelines more than this many unanswered messages. */
const MAX_PENDING_MESSAGES = 64;

let nextResponseId = 1;
function responseId(): number {
  nextResponseId = (nextResponseId + 1) & 0x7fffffff;
  return nextResponseId;
}

/**
 * One client socket: frames messages, runs them strictly in order (as mongod does per connection) and writes
 * replies. Nothing a client sends can throw out of here; unframeable input closes only this connection.
 */
export class ClientConnection {
  private readonly framer = new MessageFramer(MAX_MESSAGE_SIZE_BYTES);
  private chain: Promise<void> = Promise.resolve();
  private pending = 0;
  private closed = false;

  constructor(
    private readonly socket: Socket,
    readonly id: number,
    private readonly runCommand: CommandRunner,
    private readonly logger: Logger,
    onClose: (connection: ClientConnection) => void,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', (error) => logger.warn(`connection ${id}: ${error.message}`));
    socket.on('close', () => {
      this.closed = true;
      onClose(this);
    });
  }

  get remoteAddress(): string {
    return `${this.socket.remoteAddress ?? ''}:${this.socket.remotePort ?? ''}`;
  }

  destroy(): void {
    this.closed = true;
    this.socket.destroy();
  }

  private receive(chunk: Buffer): void {
    if (this.closed) return;
    let messages: Buffer[];
    try {
      messages = this.framer.push(chunk);
    } catch (error) {
      this.abort(error);
      return;
    }
    for (const message of messages) {
      this.pending++;
      if (this.pending > MAX_PENDING_MESSAGES) this.socket.pause();
      this.chain = this.chain
        .then(() => this.handle(message))
        .finally(() => {
          this.pending--;
          if (this.pending <= MAX_PENDING_MESSAGES / 2 && !this.closed) this.socket.resume();
        });
    }
  }

  /** Unrecoverable framing: answer with an error if the request is identifiable, then close. */
  private abort(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.logger.warn(`connection ${this.id}: closing after protocol error: ${message}`);
    this.closed = true;
    const requestId = error instanceof FramingError ? error.requestId : 0;
    const reply = new CommandError('ProtocolError', message).toReply();
    this.socket.end(encodeOpMsg(reply, responseId(), requestId));
    setTimeout(() => this.socket.destroy(), 1000).unref();
  }

  private write(buf: Buffer): void {
    if (!this.closed && !this.socket.destroyed) this.socket.write(buf);
  }

  private async handle(message: Buffer): Promise<void> {
    if (this.closed) return;
    const header = readHeader(message);
    try {
      if (header.opCode === OP_MSG) await this.handleOpMsg(message, header.requestId);
      else if (header.opCode === OP_QUERY) await this.handleOpQuery(message, header.requestId);
      else {
        const error = new CommandError('ProtocolError', `Unsupported opcode ${header.opCode}`);
        this.write(encodeOpMsg(error.toReply(), responseId(), header.requestId));
      }
    } catch (error) {
      this.logger.error(`connection ${this.id}: failed to answer request ${header.requestId}`, error);
      this.write(encodeOpMsg(toCommandError(error).toReply(), responseId(), header.requestId));
    }
  }

  private async handleOpMsg(message: Buffer, requestId: number): Promise<void> {
    const moreToCome = isMoreToCome(opMsgFlags(message));
    let reply: Doc;
    try {
      const parsed = parseOpMsg(message);
      reply = await this.runCommand(parsed.command, parsed.db, this);
    } catch (error) {
      reply = toCommandError(error).toReply();
    }
    if (!moreToCome) this.write(encodeOpMsg(reply, responseId(), requestId));
  }

  private async handleOpQuery(message: Buffer, requestId: number): Promise<void> {
    let reply: Doc;
    let failed = false;
    try {
      const { collection, query } = parseOpQuery(message);
      if (!collection.endsWith('.$cmd')) {
        throw new CommandError('ProtocolError', 'OP_QUERY is only supported for commands on <db>.$cmd; use OP_MSG');
      }
      reply = await this.runCommand(unwrapLegacyQuery(query), collection.slice(0, -'.$cmd'.length), this);
    } catch (error) {
      const commandError = toCommandError(error);
      reply = { $err: commandError.message, ...commandError.toReply() };
      failed = true;
    }
    this.write(encodeOpReply(reply, responseId(), requestId, failed));
  }
}
