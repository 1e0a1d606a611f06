import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Model } from 'mongoose';
import { isDuplicateKeyError, type Logger } from '@productgen/service-kit';
import { entryBalances, requiredBalance, sourceRefs, type LedgerOperation } from '../domain/ledger';
import type { AccountDocument, BillingModels, EntryDocument, OperationDocument } from './models';

/*
 * Applies ledger operations exactly once without multi-document transactions (DESIGN §4, §5):
 * 1. claim: insert the operation document (its key is unique); a duplicate waits for, or answers, the first outcome;
 * 2. balance: one conditional $inc on the account (balance >= debit, key not among the recent keys) that also
 *    records the key, so a crashed claimant's successor can tell whether the balance already moved;
 * 3. entries: one append-only entry per source reference (unique), with balance_after;
 * 4. outcome: the operation becomes applied; then credits.balance_changed is published.
 * A debit the balance cannot cover is refused and its claim deleted: a refusal is an answer about the balance of
 * that moment, never a remembered outcome, so the same key is judged afresh after a top-up.
 *
 * What a reader can rely on: the balance moves (step 2) before the entries appear (step 3). For every user whose
 * operations have all completed (none pending), balance == sum of entries; credits.balance_changed is published
 * only after step 3, so whoever follows that message (auth, the user view) always sees a balance its entries add
 * up to. A reader of the account alone, during an operation, may see the new balance a moment before its entries.
 */

/** How many applied operation keys each account remembers (a second guard besides the operation document). */
const RECENT_KEYS_KEPT = 200;
const CLAIM_POLL_MS = 25;

export type ApplyOutcome =
  | { status: 'applied'; balance: number; version: number; purchaser: boolean; replay: boolean }
  | { status: 'rejected'; balance: number };

/** The same operation key arrived with different content (another user, another count). */
export class OperationConflictError extends Error {
  override name = 'OperationConflictError';
}

/** The operation is still being applied by someone else after the wait allowed; the caller may retry. */
export class OperationBusyError extends Error {
  override name = 'OperationBusyError';
}

export interface BalanceChange {
  userId: string;
  balance: number;
  version: number;
  purchaser: boolean;
  operation: Pick<LedgerOperation, 'key' | 'kind'>;
}

export interface LedgerOptions {
  /** A pending claim older than this belongs to a dead process and may be taken over. */
  staleMs: number;
  now: () => Date;
  logger: Logger;
  /** Called once per applied operation (again by `recover` if it failed); must be idempotent downstream. */
  publish: (change: BalanceChange) => Promise<void>;
}

export interface AccountView {
  credits: number;
  purchaser: boolean;
  version: number;
}

export class Ledger {
  private readonly accounts: Model<AccountDocument>;
  private readonly operations: Model<OperationDocument>;
  private readonly entries: Model<EntryDocument>;

  constructor(
    models: Pick<BillingModels, 'accounts' | 'operations' | 'entries'>,
    private readonly options: LedgerOptions,
  ) {
    this.accounts = models.accounts;
    this.operations = models.operations;
    this.entries = models.entries;
  }

  /**
   * Applies the operation once; any later call with the same key answers the applied outcome (`replay: true`).
   * A refused debit leaves nothing behind, so a later call with the same key is judged on the balance of then.
   */
  async apply(operation: LedgerOperation): Promise<ApplyOutcome> {
    for (;;) {
      const token = await this.claim(operation);
      if (token) return this.execute(operation, token);
      const settled = await this.awaitOutcome(operation);
      // The claim we waited for was refused (and deleted) in the meantime: claim it ourselves.
      if (settled) return settled;
    }
  }

  /** Balance, purchaser flag and version of a user (zero for a user billing has not seen yet). */
  async account(userId: string): Promise<AccountView> {
    const account = await this.accounts.findById(userId, { balance: 1, purchaser: 1, version: 1 }).lean();
    return { credits: account?.balance ?? 0, purchaser: account?.purchaser ?? false, version: account?.version ?? 0 };
  }

  /** The charge of one generated image, if it was charged to this user. */
  async findImageCharge(userId: string, generationUuid: string, imageIndex: number): Promise<EntryDocument | null> {
    return this.entries
      .findOne({ source_ref: sourceRefs.image(generationUuid, imageIndex), user_id: userId })
      .lean<EntryDocument>();
  }

  /**
   * How far a generation's reservation got: its image charges (gen:<uuid>:<index>) are written, it is still being
   * applied (a pending operation charging gen:<uuid>:0; `recover` finishes or voids it), or nothing was debited.
   */
  async reservationOf(
    userId: string,
    generationUuid: string,
  ): Promise<{ state: 'charged' | 'pending' | 'none'; images: number }> {
    // Pending first: a claimant that died half-way may have written some of the entries already.
    const pending = await this.operations.exists({
      user_id: userId,
      kind: 'reservation',
      state: 'pending',
      'plan.entries.sourceRef': sourceRefs.image(generationUuid, 0),
    });
    if (pending) return { state: 'pending', images: 0 };
    const images = await this.entries.countDocuments({
      user_id: userId,
      generation_id: generationUuid,
      kind: 'reservation',
    });
    return { state: images > 0 ? 'charged' : 'none', images };
  }

  async hasEntry(sourceRef: string): Promise<boolean> {
    return (await this.entries.exists({ source_ref: sourceRef })) !== null;
  }

  /** Newest first; ties (one operation's entries share a time) keep the order they were applied in, reversed. */
  async log(userId: string, page: number, pageSize: number): Promise<{ items: EntryDocument[]; total: number }> {
    const [items, total] = await Promise.all([
      this.entries
        .find({ user_id: userId })
        .sort({ created_at: -1, _id: -1 })
        .skip((page - 1) * pageSize)
        .limit(pageSize)
        .lean<EntryDocument[]>(),
      this.entries.countDocuments({ user_id: userId }),
    ]);
    return { items, total };
  }

  /** Every entry of a user, oldest first (invariant checks and support tools). */
  async entriesOf(userId: string): Promise<EntryDocument[]> {
    return this.entries.find({ user_id: userId }).sort({ created_at: 1, _id: 1 }).lean<EntryDocument[]>();
  }

  /**
   * Finishes what crashed processes left: stale pending operations are taken over and completed (or rejected),
   * and applied operations whose balance message never reached the broker are published again.
   */
  async recover(): Promise<{ finished: number; republished: number }> {
    const staleBefore = new Date(this.options.now().getTime() - this.options.staleMs);
    const stale = await this.operations.find({ state: 'pending', claimed_at: { $lt: staleBefore } }).lean();
    let finished = 0;
    for (const pending of stale) {
      const token = await this.takeOver(pending);
      if (!token) continue;
      await this.resume(pending, token);
      finished += 1;
    }
    const unpublished = await this.operations.find({ state: 'applied', published: false }).lean();
    let republished = 0;
    for (const applied of unpublished) {
      // Only those whose claimant is surely gone: a fresh one is about to publish itself.
      if (applied.claimed_at.getTime() >= staleBefore.getTime()) continue;
      await this.publishApplied(applied._id, {
        userId: applied.user_id,
        balance: applied.balance ?? 0,
        version: applied.version ?? 0,
        purchaser: (await this.account(applied.user_id)).purchaser,
        operation: { key: applied._id, kind: applied.kind },
      });
      republished += 1;
    }
    return { finished, republished };
  }

  // ------------------------------------------------------------------------------------------------ internals

  /** Inserts the operation document; the claim token, or undefined when the key is claimed or applied already. */
  private async claim(operation: LedgerOperation): Promise<string | undefined> {
    const token = randomUUID();
    const now = this.options.now();
    try {
      await this.operations.create({
        _id: operation.key,
        kind: operation.kind,
        user_id: operation.userId,
        fingerprint: operation.fingerprint,
        plan: { delta: operation.delta, marks_purchaser: operation.marksPurchaser, entries: operation.entries },
        state: 'pending',
        claim_token: token,
        claimed_at: now,
        created_at: now,
      });
      return token;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      return undefined;
    }
  }

  /**
   * Waits for the claim on this key to settle. Applied: the outcome (or a conflict when the request differs).
   * Gone (refused and deleted): undefined, and the caller claims again. Stale: taken over and finished here.
   */
  private async awaitOutcome(operation: LedgerOperation): Promise<ApplyOutcome | undefined> {
    const deadline = Date.now() + this.options.staleMs * 2;
    for (;;) {
      const existing = await this.operations.findById(operation.key).lean();
      if (!existing) return undefined;
      if (existing.state === 'rejected') {
        // Written by versions that remembered refusals: it says nothing about the balance of now.
        await this.operations.deleteOne({ _id: existing._id, state: 'rejected' });
        return undefined;
      }
      if (existing.state === 'applied') {
        if (existing.fingerprint !== operation.fingerprint) {
          throw new OperationConflictError(`Operation ${operation.key} was already applied to a different request`);
        }
        return {
          status: 'applied',
          balance: existing.balance ?? 0,
          version: existing.version ?? 0,
          purchaser: existing.purchaser ?? false,
          replay: true,
        };
      }
      // Pending: the claimant's outcome decides whether this request is a replay, a conflict or a fresh try.
      const token = await this.takeOver(existing);
      if (token) {
        if (existing.fingerprint === operation.fingerprint) return this.execute(operation, token);
        await this.resume(existing, token);
        continue;
      }
      if (Date.now() > deadline) throw new OperationBusyError(`Operation ${operation.key} is still in progress`);
      await delay(CLAIM_POLL_MS);
    }
  }

  /** Takes a stale claim over; undefined while the claim is fresh or someone else took it first. */
  private async takeOver(pending: OperationDocument): Promise<string | undefined> {
    const now = this.options.now();
    if (now.getTime() - pending.claimed_at.getTime() < this.options.staleMs) return undefined;
    const token = randomUUID();
    const taken = await this.operations.updateOne(
      { _id: pending._id, state: 'pending', claim_token: pending.claim_token },
      { $set: { claim_token: token, claimed_at: now } },
    );
    return taken.modifiedCount === 1 ? token : undefined;
  }

  /**
   * Sweeper path for a dead claimant: a credit (purchase, bonus, refund) is owed, so it is completed from its
   * stored plan; a debit whose balance already moved is completed too; a debit that never moved is void, since
   * nobody waits for it any more: its claim is deleted and a caller that retries is judged afresh.
   */
  private async resume(pending: OperationDocument, token: string): Promise<void> {
    const account = await this.accounts.findById(pending.user_id).lean();
    const moved = account?.recent_ops.some((recent) => recent.key === pending._id) ?? false;
    if (moved || pending.plan.delta >= 0) {
      await this.execute(operationFromDocument(pending), token);
      return;
    }
    await this.release(pending._id, token);
  }

  /** Deletes a claim that moved nothing (a refused or void debit), so its key may be used again. */
  private async release(key: string, token: string): Promise<void> {
    await this.operations.deleteOne({ _id: key, claim_token: token, state: 'pending' });
  }

  private async ensureAccount(userId: string): Promise<void> {
    try {
      await this.accounts.updateOne(
        { _id: userId },
        { $setOnInsert: { balance: 0, version: 0, purchaser: false, recent_ops: [] } },
        { upsert: true },
      );
    } catch (error) {
      // Two first operations of a new user raced to create the account: it exists now.
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  private async execute(operation: LedgerOperation, token: string): Promise<ApplyOutcome> {
    await this.ensureAccount(operation.userId);
    const need = requiredBalance(operation);
    const filter: Record<string, unknown> = { _id: operation.userId, 'recent_ops.key': { $ne: operation.key } };
    if (need > 0) filter.balance = { $gte: need };
    const update: Record<string, unknown> = {
      $inc: { balance: operation.delta, version: 1 },
      $push: {
        recent_ops: { $each: [{ key: operation.key, fingerprint: operation.fingerprint }], $slice: -RECENT_KEYS_KEPT },
      },
    };
    if (operation.marksPurchaser) update.$set = { purchaser: true };
    let account = await this.accounts.findOneAndUpdate(filter, update, { returnDocument: 'after' }).lean();
    if (!account) {
      account = await this.accounts.findById(operation.userId).lean();
      if (!account) throw new Error(`Account of ${operation.userId} vanished`);
      const moved = account.recent_ops.find((recent) => recent.key === operation.key);
      if (!moved) {
        // Not enough credits: all or nothing, so nothing was debited, and nothing is remembered.
        await this.release(operation.key, token);
        return { status: 'rejected', balance: account.balance };
      }
      if (moved.fingerprint !== undefined && moved.fingerprint !== operation.fingerprint) {
        // A claimant that stalled past its claim moved the balance for another request under this key (another
        // count): its entries are its own to write; this request is the conflicting one.
        await this.release(operation.key, token);
        throw new OperationConflictError(`Operation ${operation.key} was already applied to a different request`);
      }
      // A crashed claimant moved the balance already: finish its work with the balance as it is now.
    }
    await this.writeEntries(operation, account.balance);
    return this.finish(operation.key, token, account.balance, account.version, account.purchaser, operation);
  }

  private async writeEntries(operation: LedgerOperation, balanceAfterOperation: number): Promise<void> {
    const balances = entryBalances(operation, balanceAfterOperation);
    const createdAt = this.options.now();
    const documents = operation.entries.map((entry, index) => ({
      user_id: operation.userId,
      source_ref: entry.sourceRef,
      operation_key: operation.key,
      kind: operation.kind,
      amount: entry.amount,
      type: entry.type,
      description: entry.description,
      generation_id: entry.generationId,
      balance_after: balances[index] ?? balanceAfterOperation,
      created_at: createdAt,
    }));
    try {
      await this.entries.insertMany(documents, { ordered: false });
    } catch (error) {
      // A resumed operation finds some entries written already: the unique source reference keeps one of each.
      const writeErrors = (error as { writeErrors?: { code?: number; err?: { code?: number } }[] }).writeErrors;
      const onlyDuplicates =
        isDuplicateKeyError(error) ||
        (Array.isArray(writeErrors) && writeErrors.every((item) => (item.code ?? item.err?.code) === 11000));
      if (!onlyDuplicates) throw error;
    }
  }

  private async finish(
    key: string,
    token: string,
    balance: number,
    version: number,
    purchaser: boolean,
    operation: Pick<LedgerOperation, 'kind' | 'userId'>,
  ): Promise<ApplyOutcome> {
    await this.operations.updateOne(
      { _id: key, claim_token: token, state: 'pending' },
      { $set: { state: 'applied', balance, version, purchaser } },
    );
    const userId = operation.userId;
    await this.publishApplied(key, { userId, balance, version, purchaser, operation: { key, kind: operation.kind } });
    return { status: 'applied', balance, version, purchaser, replay: false };
  }

  private async publishApplied(key: string, change: BalanceChange): Promise<void> {
    try {
      await this.options.publish(change);
      await this.operations.updateOne({ _id: key }, { $set: { published: true } });
    } catch (error) {
      // The balance is committed; `recover` publishes it later. The caller's answer must not depend on the broker.
      this.options.logger.warn({ err: error, operation: key }, 'balance change not published yet; recovery retries');
    }
  }
}

function operationFromDocument(document: OperationDocument): LedgerOperation {
  return {
    key: document._id,
    kind: document.kind,
    userId: document.user_id,
    delta: document.plan.delta,
    entries: document.plan.entries,
    marksPurchaser: document.plan.marks_purchaser,
    fingerprint: document.fingerprint,
  };
}
