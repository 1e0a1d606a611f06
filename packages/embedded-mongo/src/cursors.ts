import { BSON, Long } from 'bson';
import { CommandError } from './errors';
import type { Doc } from './values';

/** Replies must stay under the 16 MiB BSON limit; leave headroom for the envelope. */
const MAX_BATCH_BYTES = 16 * 1024 * 1024 - 64 * 1024;
export const DEFAULT_FIRST_BATCH_SIZE = 101;
const IDLE_TIMEOUT_MS = 10 * 60 * 1000;

interface OpenCursor {
  id: Long;
  ns: string;
  docs: Doc[];
  position: number;
  lastUsed: number;
}

export interface Batch {
  docs: Doc[];
  /** 0 when the cursor is exhausted/closed. */
  cursorId: Long;
}

/** Takes up to `size` documents (0/undefined = as many as fit) from `docs` starting at `from`. */
function takeBatch(docs: Doc[], from: number, size: number | undefined): Doc[] {
  const limit = size && size > 0 ? size : Infinity;
  const batch: Doc[] = [];
  let bytes = 0;
  for (let i = from; i < docs.length && batch.length < limit; i++) {
    const doc = docs[i] as Doc;
    bytes += BSON.calculateObjectSize(doc);
    if (bytes > MAX_BATCH_BYTES && batch.length > 0) break;
    batch.push(doc);
  }
  return batch;
}

/** Server-side cursors over materialised results, for find/aggregate/list* and getMore/killCursors. */
export class CursorManager {
  private readonly cursors = new Map<string, OpenCursor>();
  private readonly reaper: NodeJS.Timeout;

  constructor() {
    this.reaper = setInterval(() => this.reapIdle(), 60_000);
    this.reaper.unref();
  }

  /** Returns the first batch and, if documents remain and `singleBatch` is false, registers a cursor. */
  open(ns: string, docs: Doc[], batchSize: number | undefined, singleBatch = false): Batch {
    const size = batchSize ?? DEFAULT_FIRST_BATCH_SIZE;
    const first = size === 0 ? [] : takeBatch(docs, 0, size);
    if (singleBatch || first.length >= docs.length) return { docs: first, cursorId: Long.ZERO };
    const id = this.newId();
    this.cursors.set(id.toString(), { id, ns, docs, position: first.length, lastUsed: Date.now() });
    return { docs: first, cursorId: id };
  }

  getMore(rawId: unknown, ns: string, batchSize: number | undefined): Batch {
    const key = String(rawId);
    const cursor = this.cursors.get(key);
    if (!cursor) throw new CommandError('CursorNotFound', `cursor id ${key} not found`);
    if (cursor.ns !== ns) {
      throw new CommandError(
        'BadValue',
        `Requested getMore on namespace '${ns}', but cursor belongs to '${cursor.ns}'`,
      );
    }
    const batch = takeBatch(cursor.docs, cursor.position, batchSize);
    cursor.position += batch.length;
    cursor.lastUsed = Date.now();
    if (cursor.position >= cursor.docs.length) {
      this.cursors.delete(key);
      return { docs: batch, cursorId: Long.ZERO };
    }
    return { docs: batch, cursorId: cursor.id };
  }

  kill(ids: unknown[]): { killed: unknown[]; notFound: unknown[] } {
    const killed: unknown[] = [];
    const notFound: unknown[] = [];
    for (const id of ids) (this.cursors.delete(String(id)) ? killed : notFound).push(id);
    return { killed, notFound };
  }

  get size(): number {
    return this.cursors.size;
  }

  close(): void {
    clearInterval(this.reaper);
    this.cursors.clear();
  }

  private reapIdle(): void {
    const cutoff = Date.now() - IDLE_TIMEOUT_MS;
    for (const [key, cursor] of this.cursors) if (cursor.lastUsed < cutoff) this.cursors.delete(key);
  }

  /** Positive ids below 2^53 so they survive the driver's number/Long conversions unchanged. */
  private newId(): Long {
    let id: Long;
    do id = Long.fromNumber(1 + Math.floor(Math.random() * (Number.MAX_SAFE_INTEGER - 1)));
    while (this.cursors.has(id.toString()));
    return id;
  }
}

/** The `cursor` sub-document of find/aggregate/getMore replies. */
export function cursorReply(ns: string, batch: Batch, field: 'firstBatch' | 'nextBatch'): Doc {
  return { cursor: { [field]: batch.docs, id: batch.cursorId, ns }, ok: 1 };
}
