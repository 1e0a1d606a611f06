import { isDuplicateKeyError, type MongoHitCounter } from '@productgen/service-kit';
import type { IncrementResponse, Store } from 'express-rate-limit';

/**
 * At most this many hits are taken from the shared window at once. A key's requests wait for a block while it is
 * taken, so one key gets at most MAX_BLOCK requests per MongoDB round trip: on a loaded machine (a round trip of a
 * second) blocks of 64 held one address to 64 requests/s. Accuracy does not need the cap (a block is already at
 * most 1/32 of what is left of the limit); it only bounds the hits an idle replica holds of a very large limit.
 */
export const MAX_BLOCK = 10_000;
/** A block is at most this share of what is left of the limit, so near the limit hits are taken one at a time. */
const SHARE_OF_REMAINING = 32;

interface Block {
  resetTime: Date;
  /** The hit number the next request gets. */
  next: number;
  /** The last hit number of the block this replica holds. */
  end: number;
  /** The shared window's count when the block was taken (every replica's hits). */
  sharedTotal: number;
}

/**
 * One limit's counters in the MongoDB every replica shares, without a round trip per request: a replica takes hits
 * from the shared window in blocks (one `$inc` by n) and numbers its requests from the block in memory. A block is
 * at most 1/32 of what is left of the limit (and at most MAX_BLOCK hits), so the last hits of a limit are taken one by one
 * and N replicas still allow the limit once, never more: a hit number counts whether or not it was used, so the
 * hits a replica holds unused at most make a client be refused that many hits early. Once the shared count is past
 * the limit, the rest of the window is refused without asking again (a window's count only grows).
 */
export class SharedHitBlocks implements Store {
  readonly localKeys = false;
  private readonly blocks = new Map<string, Block>();
  private readonly taking = new Map<string, Promise<void>>();
  private lastSweep = Date.now();

  constructor(
    private readonly counter: MongoHitCounter,
    readonly prefix: string,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  increment(key: string): IncrementResponse | Promise<IncrementResponse> {
    const now = Date.now();
    let block = this.blocks.get(key);
    if (block && block.resetTime.getTime() <= now) {
      this.blocks.delete(key);
      block = undefined;
    }
    if (block) {
      if (block.next > block.end && block.sharedTotal >= this.limit) block.end = block.next;
      if (block.next <= block.end) return { totalHits: block.next++, resetTime: block.resetTime };
    }
    return this.afterTaking(key, block);
  }

  private async afterTaking(key: string, known: Block | undefined): Promise<IncrementResponse> {
    let taking = this.taking.get(key);
    if (!taking) {
      taking = this.take(key, known).finally(() => this.taking.delete(key));
      this.taking.set(key, taking);
    }
    await taking;
    // Requests that waited for the same block share it; one that finds it used up takes the next.
    return this.increment(key);
  }

  private async take(key: string, known: Block | undefined): Promise<void> {
    const remaining = this.limit - (known?.sharedTotal ?? 0);
    const size = Math.max(1, Math.min(MAX_BLOCK, Math.floor(remaining / SHARE_OF_REMAINING)));
    const { total, resetTime } = await this.addHits(`${this.prefix}${key}`, size, new Date());
    this.sweep();
    this.blocks.set(key, { resetTime, next: total - size + 1, end: total, sharedTotal: total });
  }

  /** `size` hits of `id` now: in its running window, or as the first of a new one (as MongoHitCounter counts one). */
  private async addHits(id: string, size: number, now: Date): Promise<{ total: number; resetTime: Date }> {
    const { model } = this.counter;
    const running = await model
      .findOneAndUpdate({ _id: id, reset_at: { $gt: now } }, { $inc: { hits: size } }, { returnDocument: 'after' })
      .lean()
      .exec();
    if (running) return { total: running.hits, resetTime: running.reset_at };
    const fresh = { hits: size, reset_at: new Date(now.getTime() + this.windowMs) };
    try {
      await model.updateOne({ _id: id, reset_at: { $lte: now } }, { $set: fresh }, { upsert: true }).exec();
      return { total: fresh.hits, resetTime: fresh.reset_at };
    } catch (error) {
      // Another replica started the window just now: count these hits in it.
      if (isDuplicateKeyError(error)) return this.addHits(id, size, now);
      throw error;
    }
  }

  /** Forgets ended windows, at most once per window length. */
  private sweep(): void {
    const now = Date.now();
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    for (const [key, block] of this.blocks) if (block.resetTime.getTime() <= now) this.blocks.delete(key);
  }

  async decrement(key: string): Promise<void> {
    await this.counter.decrement(`${this.prefix}${key}`);
  }

  async resetKey(key: string): Promise<void> {
    this.blocks.delete(key);
    await this.counter.reset(`${this.prefix}${key}`);
  }
}
