import { createHash } from 'node:crypto';
import { limits, type PurchasablePackageId, getPackageTier } from '@productgen/contracts';

/*
 * Pure rules of the credit ledger (DESIGN §5). A ledger operation moves a user's balance by `delta` in one
 * conditional update and appends one entry per source reference; the operation key makes a retry a no-op.
 */

export type TransactionType = 'increase' | 'decrease';

/** One append-only ledger line; `sourceRef` is unique across the ledger. */
export interface PlannedEntry {
  sourceRef: string;
  /** Positive; `type` gives the direction. */
  amount: number;
  type: TransactionType;
  description: string;
  generationId: string | null;
}

export type OperationKind = 'signup_bonus' | 'purchase' | 'reservation' | 'give_back' | 'user_refund';

/** Everything the repository needs to apply an operation exactly once. */
export interface LedgerOperation {
  /** Unique per operation; a second apply with the same key answers the first outcome. */
  key: string;
  kind: OperationKind;
  userId: string;
  /** Net balance change (sum of the entries, signed). */
  delta: number;
  entries: PlannedEntry[];
  /** A purchase makes the user a purchaser (no watermark from then on). */
  marksPurchaser: boolean;
  /** What must be identical on a retry with the same key (else it is a different request reusing a key). */
  fingerprint: string;
}

export const SIGNUP_BONUS_DESCRIPTION = 'Signup bonus';
export const DEFAULT_GENERATION_DESCRIPTION = 'Image generation';
export const giveBackDescriptions = {
  failed: 'Refund: image failed',
  skipped: 'Refund: product skipped',
  user: 'Refund: requested by you',
} as const;

export const sourceRefs = {
  signup: (userId: string) => `signup:${userId}`,
  payment: (sessionId: string) => `payment:${sessionId}`,
  image: (generationUuid: string, index: number) => `gen:${generationUuid}:${index}`,
  refund: (generationUuid: string, index: number) => `refund:${generationUuid}:${index}`,
};

/** The image a refund reference names (`sourceRefs.refund`'s inverse); undefined for any other reference. */
export function refundedImageOf(ref: string): { generationUuid: string; imageIndex: number } | undefined {
  const match = /^refund:(.+):(\d+)$/.exec(ref);
  return match ? { generationUuid: match[1]!, imageIndex: Number(match[2]) } : undefined;
}

export const operationKeys = {
  reservation: (generationUuid: string) => `reserve:${generationUuid}`,
  batchReservation: (batchUuid: string) => `reserve-batch:${batchUuid}`,
};

export const DEFAULT_BATCH_DESCRIPTION = 'Batch creation';

function signed(entry: PlannedEntry): number {
  return entry.type === 'increase' ? entry.amount : -entry.amount;
}

function operation(
  key: string,
  kind: OperationKind,
  userId: string,
  entries: PlannedEntry[],
  extra: { marksPurchaser?: boolean; fingerprint?: string } = {},
): LedgerOperation {
  if (entries.length === 0) throw new RangeError('A ledger operation needs at least one entry');
  for (const entry of entries) {
    if (!Number.isInteger(entry.amount) || entry.amount <= 0) {
      throw new RangeError(`Ledger amounts are positive whole numbers, got ${entry.amount}`);
    }
  }
  return {
    key,
    kind,
    userId,
    delta: entries.reduce((sum, entry) => sum + signed(entry), 0),
    entries,
    marksPurchaser: extra.marksPurchaser ?? false,
    fingerprint: extra.fingerprint ?? `${kind}:${userId}`,
  };
}

export function planSignupBonus(userId: string): LedgerOperation {
  const ref = sourceRefs.signup(userId);
  return operation(ref, 'signup_bonus', userId, [
    {
      sourceRef: ref,
      amount: limits.signupBonusCredits,
      type: 'increase',
      description: SIGNUP_BONUS_DESCRIPTION,
      generationId: null,
    },
  ]);
}

export function purchaseDescription(packageId: PurchasablePackageId): string {
  const tier = getPackageTier(packageId);
  return `Purchase: ${tier.name} (${tier.images} credits)`;
}

export function planPurchase(userId: string, sessionId: string, packageId: PurchasablePackageId): LedgerOperation {
  const ref = sourceRefs.payment(sessionId);
  const tier = getPackageTier(packageId);
  return operation(
    ref,
    'purchase',
    userId,
    [
      {
        sourceRef: ref,
        amount: tier.images,
        type: 'increase',
        description: purchaseDescription(packageId),
        generationId: null,
      },
    ],
    { marksPurchaser: true, fingerprint: `purchase:${userId}:${packageId}` },
  );
}

/** One entry per image (gen:<uuid>:<index>), so each image can be given back on its own. */
export function planReservation(
  userId: string,
  generationUuid: string,
  count: number,
  description = DEFAULT_GENERATION_DESCRIPTION,
): LedgerOperation {
  if (!Number.isInteger(count) || count < 1)
    throw new RangeError(`A reservation needs at least one image, got ${count}`);
  const entries = Array.from({ length: count }, (_unused, index) => ({
    sourceRef: sourceRefs.image(generationUuid, index),
    amount: 1,
    type: 'decrease' as const,
    description,
    generationId: generationUuid,
  }));
  return operation(operationKeys.reservation(generationUuid), 'reservation', userId, entries, {
    fingerprint: `reservation:${userId}:${count}`,
  });
}

/**
 * A whole batch in one operation, all or nothing: the same per-image entries (gen:<uuid>:<index>) a reservation of
 * each product would make, so a product's images are given back exactly as a single generation's.
 */
export function planBatchReservation(
  userId: string,
  batchUuid: string,
  items: readonly { generationUuid: string; count: number }[],
  description = DEFAULT_BATCH_DESCRIPTION,
): LedgerOperation {
  const entries = items.flatMap((item) => {
    if (!Number.isInteger(item.count) || item.count < 1) {
      throw new RangeError(`A reservation needs at least one image, got ${item.count}`);
    }
    return Array.from({ length: item.count }, (_unused, index) => ({
      sourceRef: sourceRefs.image(item.generationUuid, index),
      amount: 1,
      type: 'decrease' as const,
      description,
      generationId: item.generationUuid,
    }));
  });
  const shape = createHash('sha256')
    .update(items.map((item) => `${item.generationUuid}:${item.count}`).join(','))
    .digest('hex');
  return operation(operationKeys.batchReservation(batchUuid), 'reservation', userId, entries, {
    fingerprint: `batch-reservation:${userId}:${shape}`,
  });
}

export type GiveBackOrigin = keyof typeof giveBackDescriptions;

/**
 * The credit of one charged image comes back under refund:<uuid>:<index>, whatever asked for it (a failed render,
 * a skipped product, the user): whichever comes first wins, the others find it done.
 */
export function planImageRefund(
  userId: string,
  generationUuid: string,
  imageIndex: number,
  origin: GiveBackOrigin,
): LedgerOperation {
  const ref = sourceRefs.refund(generationUuid, imageIndex);
  return operation(
    ref,
    origin === 'user' ? 'user_refund' : 'give_back',
    userId,
    [
      {
        sourceRef: ref,
        amount: 1,
        type: 'increase',
        description: giveBackDescriptions[origin],
        generationId: generationUuid,
      },
    ],
    // Any origin may claim the refund first; the user is what has to match.
    { fingerprint: `refund:${userId}` },
  );
}

/**
 * balance_after of each entry, as if the entries were applied one by one: the operation moved the balance from
 * `balanceAfterOperation - delta` to `balanceAfterOperation` atomically, in this order.
 */
export function entryBalances(operation: LedgerOperation, balanceAfterOperation: number): number[] {
  let balance = balanceAfterOperation - operation.delta;
  return operation.entries.map((entry) => {
    balance += signed(entry);
    return balance;
  });
}

/** The amount a debit needs available: the balance may never go below zero. */
export function requiredBalance(operation: LedgerOperation): number {
  return operation.delta < 0 ? -operation.delta : 0;
}

/** Sum of signed entry amounts: equals the balance for every user (the ledger's main invariant). */
export function sumOfEntries(entries: readonly { amount: number; type: TransactionType }[]): number {
  return entries.reduce((sum, entry) => sum + (entry.type === 'increase' ? entry.amount : -entry.amount), 0);
}
