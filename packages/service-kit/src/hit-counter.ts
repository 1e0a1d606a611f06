import { Schema, type Connection, type Model } from 'mongoose';
import { isDuplicateKeyError } from './mongo';

/** One key's hits in its current window; `_id` is the key. */
interface HitWindowDocument {
  _id: string;
  hits: number;
  /** When the window ends; MongoDB's TTL monitor removes the record some time after. */
  reset_at: Date;
}

const hitWindowSchema = new Schema<HitWindowDocument>(
  {
    _id: { type: String, required: true },
    hits: { type: Number, required: true },
    reset_at: { type: Date, required: true },
  },
  { collection: 'rate_limit_windows', versionKey: false },
);
hitWindowSchema.index({ reset_at: 1 }, { expireAfterSeconds: 0 });

export interface HitCount {
  totalHits: number;
  resetTime: Date;
}

/**
 * Fixed-window hit counters in MongoDB, shared by every replica that uses the same database: each hit is one atomic
 * update, so N replicas count one limit, not N. (The gateway's rate limits; express-rate-limit's store contract.)
 */
export class MongoHitCounter {
  private constructor(
    /** The collection's model (the gateway's migration creates its indexes). */
    readonly model: Model<HitWindowDocument>,
    private readonly windowMs: number,
  ) {}

  static async open(connection: Connection, windowMs: number): Promise<MongoHitCounter> {
    const model =
      (connection.models.HitWindow as Model<HitWindowDocument> | undefined) ??
      connection.model<HitWindowDocument>('HitWindow', hitWindowSchema);
    await model.init();
    return new MongoHitCounter(model, windowMs);
  }

  /** Counts one hit of `key` now: within its running window, or as the first of a new one. */
  async increment(key: string, now = new Date()): Promise<HitCount> {
    const running = await this.model
      .findOneAndUpdate({ _id: key, reset_at: { $gt: now } }, { $inc: { hits: 1 } }, { returnDocument: 'after' })
      .lean<HitWindowDocument>()
      .exec();
    if (running) return { totalHits: running.hits, resetTime: running.reset_at };
    const fresh = { hits: 1, reset_at: new Date(now.getTime() + this.windowMs) };
    try {
      // No window, or an ended one: this hit starts the next.
      await this.model.updateOne({ _id: key, reset_at: { $lte: now } }, { $set: fresh }, { upsert: true }).exec();
      return { totalHits: fresh.hits, resetTime: fresh.reset_at };
    } catch (error) {
      // Another replica started the window just now: count this hit in it.
      if (isDuplicateKeyError(error)) return this.increment(key, now);
      throw error;
    }
  }

  /** Takes one hit back (a request the limiter decided not to count after all). */
  async decrement(key: string): Promise<void> {
    await this.model.updateOne({ _id: key, hits: { $gt: 0 } }, { $inc: { hits: -1 } }).exec();
  }

  async reset(key: string): Promise<void> {
    await this.model.deleteOne({ _id: key }).exec();
  }
}
