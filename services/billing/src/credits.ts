import type { Model } from 'mongoose';
import {
  OUT_OF_CREDITS_MESSAGE,
  type CreditRecord,
  type GiveBackCreditResponse,
  type GiveBackReason,
  type RefundResponse,
  type ReservationState,
  type ReserveCreditsResponse,
  type UserBilling,
} from '@productgen/contracts';
import { AppError } from '@productgen/service-kit';
import { OperationBusyError, OperationConflictError, type Ledger } from './data/ledger';
import type { EntryDocument, RefundRequestDocument } from './data/models';
import { planBatchReservation, planImageRefund, planReservation, planSignupBonus, sourceRefs } from './domain/ledger';
import type { RefundSlots } from './data/refund-slots';
import {
  ALREADY_REFUNDED_MESSAGE,
  REFUND_NOT_FOUND_MESSAGE,
  refundLimitMessage,
  type RefundLimit,
} from './domain/refund-policy';

/** What users and the other services ask of the ledger, with the answers of the HTTP API. */
export class CreditService {
  constructor(
    private readonly ledger: Ledger,
    private readonly refundRequests: Model<RefundRequestDocument>,
    private readonly refundSlots: RefundSlots,
    private readonly refundLimit: RefundLimit,
    private readonly now: () => Date,
  ) {}

  /** Signup bonus: 10 credits, once per user (signup:<userId>). */
  async grantSignupBonus(userId: string): Promise<void> {
    await this.ledger.apply(planSignupBonus(userId));
  }

  /** All or nothing; idempotent by generationUuid. */
  async reserve(
    userId: string,
    generationUuid: string,
    count: number,
    description?: string,
  ): Promise<ReserveCreditsResponse> {
    const outcome = await withLedgerErrors(() =>
      this.ledger.apply(planReservation(userId, generationUuid, count, description)),
    );
    if (outcome.status === 'rejected') throw AppError.paymentRequired(OUT_OF_CREDITS_MESSAGE);
    return { balance: outcome.balance, watermark: !outcome.purchaser };
  }

  /** A whole batch (bulk), all or nothing; idempotent by batchUuid. */
  async reserveBatch(
    userId: string,
    batchUuid: string,
    items: readonly { generationUuid: string; count: number }[],
    description?: string,
  ): Promise<ReserveCreditsResponse> {
    const outcome = await withLedgerErrors(() =>
      this.ledger.apply(planBatchReservation(userId, batchUuid, items, description)),
    );
    if (outcome.status === 'rejected') throw AppError.paymentRequired(OUT_OF_CREDITS_MESSAGE);
    return { balance: outcome.balance, watermark: !outcome.purchaser };
  }

  /** One charged image's credit back (failed image, skipped product); at most once per image. */
  async giveBack(
    userId: string,
    generationUuid: string,
    imageIndex: number,
    reason: GiveBackReason,
  ): Promise<GiveBackCreditResponse> {
    const charge = await this.ledger.findImageCharge(userId, generationUuid, imageIndex);
    if (!charge) return { balance: (await this.ledger.account(userId)).credits, refunded: false };
    const outcome = await withLedgerErrors(() =>
      this.ledger.apply(planImageRefund(userId, generationUuid, imageIndex, reason)),
    );
    const refunded = outcome.status === 'applied' && !outcome.replay;
    return { balance: refunded ? outcome.balance : (await this.ledger.account(userId)).credits, refunded };
  }

  /** A user's refund request for one image: theirs, charged, once, within the abuse limit. */
  async refund(userId: string, generationUuid: string, imageIndex: number, reason: string): Promise<RefundResponse> {
    const charge = await this.ledger.findImageCharge(userId, generationUuid, imageIndex);
    if (!charge) throw AppError.notFound(REFUND_NOT_FOUND_MESSAGE);
    const refundRef = sourceRefs.refund(generationUuid, imageIndex);
    if (await this.ledger.hasEntry(refundRef)) throw AppError.conflict(ALREADY_REFUNDED_MESSAGE);
    // The slot is taken before the refund is applied, so concurrent requests can never exceed the limit.
    const slot = await this.refundSlots.take(userId, refundRef, this.now());
    if (!slot) throw AppError.tooManyRequests(refundLimitMessage(this.refundLimit));

    let outcome;
    try {
      outcome = await withLedgerErrors(() =>
        this.ledger.apply(planImageRefund(userId, generationUuid, imageIndex, 'user')),
      );
    } catch (error) {
      await this.refundSlots.giveBack(slot, refundRef);
      throw error;
    }
    if (outcome.status !== 'applied' || outcome.replay) {
      // Someone refunded this image meanwhile (the user twice, or the generation service): nothing was granted.
      await this.refundSlots.giveBack(slot, refundRef);
      throw AppError.conflict(ALREADY_REFUNDED_MESSAGE);
    }
    await this.refundRequests.updateOne(
      { _id: refundRef },
      {
        $setOnInsert: {
          user_id: userId,
          generation_uuid: generationUuid,
          image_index: imageIndex,
          reason,
          created_at: this.now(),
        },
      },
      { upsert: true },
    );
    return { success: true, status: 'refunded', credits: outcome.balance };
  }

  /** Whether a generation's reservation was applied: the generation sweeper asks before queueing or failing it. */
  async reservationState(userId: string, generationUuid: string): Promise<ReservationState> {
    const [charge, account] = await Promise.all([
      this.ledger.reservationOf(userId, generationUuid),
      this.ledger.account(userId),
    ]);
    return { ...charge, watermark: !account.purchaser };
  }

  async billing(userId: string): Promise<UserBilling> {
    const account = await this.ledger.account(userId);
    return { credits: account.credits, purchaser: account.purchaser };
  }

  async log(userId: string, page: number, pageSize: number): Promise<{ items: CreditRecord[]; total: number }> {
    const { items, total } = await this.ledger.log(userId, page, pageSize);
    return { items: items.map(toCreditRecord), total };
  }
}

export function toCreditRecord(entry: EntryDocument): CreditRecord {
  return {
    id: entry._id.toHexString(),
    created_at: entry.created_at.toISOString(),
    description: entry.description,
    generation_id: entry.generation_id,
    transaction_type: entry.type,
    amount: entry.amount,
    balance_after: entry.balance_after,
  };
}

/** Ledger failures a caller can act on become HTTP answers. */
async function withLedgerErrors<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof OperationConflictError) {
      throw AppError.conflict('This generation id was already used for a different reservation.');
    }
    if (error instanceof OperationBusyError) {
      throw AppError.serviceUnavailable('The same request is still being processed. Please retry shortly.');
    }
    throw error;
  }
}
