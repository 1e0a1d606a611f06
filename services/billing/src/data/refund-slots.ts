import type { Model } from 'mongoose';
import { isDuplicateKeyError } from '@productgen/service-kit';
import { refundSlotIds, refundWindowStart, type RefundLimit } from '../domain/refund-policy';
import type { RefundSlotDocument } from './models';

/** The refund abuse limit as slots: each take or give-back is one conditional atomic update of one slot. */
export class RefundSlots {
  constructor(
    private readonly slots: Model<RefundSlotDocument>,
    private readonly limit: RefundLimit,
  ) {}

  /** Takes a free slot for this refund; the slot's id, or undefined when every slot holds a grant in the window. */
  async take(userId: string, refundRef: string, now: Date): Promise<string | undefined> {
    const windowStart = refundWindowStart(this.limit, now);
    for (const slotId of refundSlotIds(userId, this.limit)) {
      try {
        // Matches a slot whose grant has left the window; a slot never used is inserted; a busy slot makes the
        // upsert's insert collide with it, which is the "taken" answer.
        const taken = await this.slots.updateOne(
          { _id: slotId, granted_at: { $lt: windowStart } },
          { $set: { granted_at: now, refund_ref: refundRef }, $setOnInsert: { user_id: userId } },
          { upsert: true },
        );
        if (taken.modifiedCount === 1 || taken.upsertedCount === 1) return slotId;
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
      }
    }
    return undefined;
  }

  /** Frees a slot whose refund was not granted after all (found refunded meanwhile, or failed). */
  async giveBack(slotId: string, refundRef: string): Promise<void> {
    await this.slots.updateOne({ _id: slotId, refund_ref: refundRef }, { $set: { granted_at: new Date(0) } });
  }
}
