import { Schema, type Connection, type Model } from 'mongoose';
import { AppError } from './errors';
import { isDuplicateKeyError } from './mongo';

/** At most `max` uses per user within any `windowMs`. */
export interface QuotaLimit {
  max: number;
  windowMs: number;
}

/** One user's recent uses of one quota; `_id` is `<quota>:<userId>`. */
export interface UsageWindowDocument {
  _id: string;
  /** When each use inside the window happened, oldest first. */
  times: Date[];
  /** The window's end after the last use: MongoDB's TTL monitor removes the record of a user who stopped. */
  expires_at: Date;
}

const usageWindowSchema = new Schema<UsageWindowDocument>(
  {
    _id: { type: String, required: true },
    times: { type: [Date], default: [] },
    expires_at: { type: Date, required: true },
  },
  { collection: 'usage_windows', versionKey: false },
);
usageWindowSchema.index({ expires_at: 1 }, { expireAfterSeconds: 0 });

export async function usageWindowModel(connection: Connection): Promise<Model<UsageWindowDocument>> {
  const model =
    (connection.models.UsageWindow as Model<UsageWindowDocument> | undefined) ??
    connection.model<UsageWindowDocument>('UsageWindow', usageWindowSchema);
  await model.init();
  return model;
}

/**
 * A per-user sliding window kept in MongoDB (the service's own database), so every replica of a service counts the
 * same uses; several quotas share the collection, each under its own name. A use is taken
 * by one conditional atomic update of the user's record: it adds the time only while fewer than `max` lie inside
 * the window, so concurrent requests can never exceed the limit.
 */
export class UsageQuota {
  constructor(
    private readonly model: Model<UsageWindowDocument>,
    private readonly name: string,
    private readonly limit: QuotaLimit,
    /** The 429 answer's text, given the minutes until the next use is allowed. */
    private readonly refusal: (limit: QuotaLimit, waitMinutes: number) => string,
  ) {}

  /** Counts one use now; a 429 AppError when the user already used the quota up in the window. */
  async take(userId: string, now: Date): Promise<void> {
    const _id = `${this.name}:${userId}`;
    const windowStart = new Date(now.getTime() - this.limit.windowMs);
    await this.model.updateOne({ _id }, { $pull: { times: { $lte: windowStart } } }).exec();
    const filter = { _id, [`times.${this.limit.max - 1}`]: { $exists: false } };
    const use = { $push: { times: now }, $set: { expires_at: new Date(now.getTime() + this.limit.windowMs) } };
    try {
      // Matches only while the window holds fewer than `max` uses; a user's first use inserts the record.
      await this.model.updateOne(filter, use, { upsert: true }).exec();
      return;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    // The insert collided: the record exists, full, or another request's first use inserted it just now. Without
    // the upsert the same condition tells the two apart.
    const taken = await this.model.updateOne(filter, use).exec();
    if (taken.modifiedCount === 1) return;
    const record = await this.model.findById(_id).lean<UsageWindowDocument>().exec();
    const oldest = record?.times[0]?.getTime() ?? now.getTime();
    const waitMinutes = Math.max(1, Math.ceil((oldest + this.limit.windowMs - now.getTime()) / 60_000));
    throw AppError.tooManyRequests(this.refusal(this.limit, waitMinutes));
  }
}

/** "a minute", "7 minutes": how a refusal says when to try again. */
export function minutesText(minutes: number): string {
  return minutes === 1 ? 'a minute' : `${minutes} minutes`;
}
