import { Schema, type Connection, type Model, type Types } from 'mongoose';
import type { OperationKind, PlannedEntry, TransactionType } from '../domain/ledger';

/** Key of an operation whose balance change is done: a second change under the same key is refused. */
export interface AppliedOperationKey {
  key: string;
  /** What the change was for (absent on keys written by earlier versions): a retry must match it. */
  fingerprint?: string;
}

/** One per user: the balance, changed only by conditional atomic updates. */
export interface AccountDocument {
  _id: string;
  balance: number;
  /** Counts balance changes; credits.balance_changed carries it so consumers keep only the newest. */
  version: number;
  purchaser: boolean;
  /** Keys of the newest operations applied to the balance (bounded), checked by the conditional update. */
  recent_ops: AppliedOperationKey[];
  created_at: Date;
  updated_at: Date;
}

/** `rejected` was written by earlier versions, which remembered refusals; it is now treated as no claim at all. */
export type OperationState = 'pending' | 'applied' | 'rejected';

/**
 * The claim and outcome of one ledger operation; `_id` is the operation key. Only applied operations stay: a
 * refused debit's claim is deleted, so the key is free again.
 */
export interface OperationDocument {
  _id: string;
  kind: OperationKind;
  user_id: string;
  fingerprint: string;
  /** The whole plan, so a successor can finish the operation of a claimant that died half-way. */
  plan: { delta: number; marks_purchaser: boolean; entries: PlannedEntry[] };
  state: OperationState;
  /** Whoever holds the claim applies the operation; a stale claim may be taken over. */
  claim_token: string;
  claimed_at: Date;
  /** Balance after the operation (applied). */
  balance: number | null;
  version: number | null;
  /** Whether the user was a purchaser when the operation applied (a replayed reservation answers the same). */
  purchaser: boolean | null;
  /** credits.balance_changed was accepted by the broker. */
  published: boolean;
  created_at: Date;
}

/** An append-only ledger line. */
export interface EntryDocument {
  _id: Types.ObjectId;
  user_id: string;
  source_ref: string;
  operation_key: string;
  kind: OperationKind;
  amount: number;
  type: TransactionType;
  description: string;
  generation_id: string | null;
  balance_after: number;
  created_at: Date;
}

export type PaymentStatus = 'pending' | 'paid' | 'failed' | 'expired';

/** A checkout session as billing knows it; doubles as the payment record. `_id` is the provider's session id. */
export interface CheckoutDocument {
  _id: string;
  user_id: string;
  provider: 'stripe' | 'dev';
  package_id: number;
  credits: number;
  amount_cents: number;
  currency: string;
  status: PaymentStatus;
  created_at: Date;
  updated_at: Date;
  paid_at: Date | null;
}

/** The dev checkout's own copy of a session (what Stripe would hold). */
export interface DevCheckoutSessionDocument {
  _id: string;
  product_name: string;
  amount_cents: number;
  currency: string;
  metadata: Record<string, string>;
  client_reference_id: string;
  success_url: string;
  cancel_url: string;
  status: 'open' | 'complete';
  payment_status: 'unpaid' | 'paid';
  created_at: Date;
}

const appliedKeySchema = new Schema<AppliedOperationKey>({ key: String, fingerprint: String }, { _id: false });

const accountSchema = new Schema<AccountDocument>(
  {
    _id: { type: String, required: true },
    balance: { type: Number, required: true, default: 0 },
    version: { type: Number, required: true, default: 0 },
    purchaser: { type: Boolean, required: true, default: false },
    recent_ops: { type: [appliedKeySchema], default: [] },
  },
  { collection: 'accounts', timestamps: { createdAt: 'created_at', updatedAt: 'updated_at' }, versionKey: false },
);

const operationSchema = new Schema<OperationDocument>(
  {
    _id: { type: String, required: true },
    kind: { type: String, required: true },
    user_id: { type: String, required: true },
    fingerprint: { type: String, required: true },
    plan: { type: Schema.Types.Mixed, required: true },
    state: { type: String, required: true },
    claim_token: { type: String, required: true },
    claimed_at: { type: Date, required: true },
    balance: { type: Number, default: null },
    version: { type: Number, default: null },
    purchaser: { type: Boolean, default: null },
    published: { type: Boolean, default: false },
    created_at: { type: Date, required: true },
  },
  { collection: 'ledger_operations', versionKey: false },
);
operationSchema.index({ state: 1, claimed_at: 1 });
operationSchema.index({ published: 1, state: 1 });

const entrySchema = new Schema<EntryDocument>(
  {
    user_id: { type: String, required: true },
    source_ref: { type: String, required: true, unique: true },
    operation_key: { type: String, required: true },
    kind: { type: String, required: true },
    amount: { type: Number, required: true },
    type: { type: String, required: true },
    description: { type: String, required: true },
    generation_id: { type: String, default: null },
    balance_after: { type: Number, required: true },
    created_at: { type: Date, required: true },
  },
  { collection: 'ledger_entries', versionKey: false },
);
entrySchema.index({ user_id: 1, created_at: -1, _id: -1 });
entrySchema.index({ user_id: 1, kind: 1, created_at: -1 });

const checkoutSchema = new Schema<CheckoutDocument>(
  {
    _id: { type: String, required: true },
    user_id: { type: String, required: true },
    provider: { type: String, required: true },
    package_id: { type: Number, required: true },
    credits: { type: Number, required: true },
    amount_cents: { type: Number, required: true },
    currency: { type: String, required: true },
    status: { type: String, required: true },
    paid_at: { type: Date, default: null },
  },
  { collection: 'checkouts', timestamps: { createdAt: 'created_at', updatedAt: 'updated_at' }, versionKey: false },
);
checkoutSchema.index({ user_id: 1, created_at: -1 });

const devCheckoutSessionSchema = new Schema<DevCheckoutSessionDocument>(
  {
    _id: { type: String, required: true },
    product_name: { type: String, required: true },
    amount_cents: { type: Number, required: true },
    currency: { type: String, required: true },
    metadata: { type: Schema.Types.Mixed, required: true },
    client_reference_id: { type: String, required: true },
    success_url: { type: String, required: true },
    cancel_url: { type: String, required: true },
    status: { type: String, required: true },
    payment_status: { type: String, required: true },
    created_at: { type: Date, required: true },
  },
  { collection: 'dev_checkout_sessions', versionKey: false },
);

/** A user's refund request, with the reason they gave; `_id` is the refund source reference. */
export interface RefundRequestDocument {
  _id: string;
  user_id: string;
  generation_uuid: string;
  image_index: number;
  reason: string;
  created_at: Date;
}

const refundRequestSchema = new Schema<RefundRequestDocument>(
  {
    _id: { type: String, required: true },
    user_id: { type: String, required: true, index: true },
    generation_uuid: { type: String, required: true },
    image_index: { type: Number, required: true },
    reason: { type: String, required: true },
    created_at: { type: Date, required: true },
  },
  { collection: 'refund_requests', versionKey: false },
);

/** One of a user's refund-limit slots (domain/refund-policy.ts); `_id` is `<userId>:<slot>`. */
export interface RefundSlotDocument {
  _id: string;
  user_id: string;
  /** When the refund held by this slot was granted; the slot is free again once this leaves the window. */
  granted_at: Date;
  /** The refund source reference holding the slot, so only its holder can give the slot back. */
  refund_ref: string;
}

const refundSlotSchema = new Schema<RefundSlotDocument>(
  {
    _id: { type: String, required: true },
    user_id: { type: String, required: true },
    granted_at: { type: Date, required: true },
    refund_ref: { type: String, required: true },
  },
  { collection: 'refund_slots', versionKey: false },
);

export interface BillingModels {
  accounts: Model<AccountDocument>;
  operations: Model<OperationDocument>;
  entries: Model<EntryDocument>;
  checkouts: Model<CheckoutDocument>;
  devCheckoutSessions: Model<DevCheckoutSessionDocument>;
  refundRequests: Model<RefundRequestDocument>;
  refundSlots: Model<RefundSlotDocument>;
}

/** The connection's model of that name, registered on first use (a second service instance reuses it). */
function modelOn<T>(connection: Connection, name: string, schema: Schema<T>): Model<T> {
  return (connection.models[name] as Model<T> | undefined) ?? connection.model<T>(name, schema);
}

/** Registers the models on the service's own connection and builds their indexes (unique keys are relied on). */
export async function createModels(connection: Connection): Promise<BillingModels> {
  const models: BillingModels = {
    accounts: modelOn(connection, 'Account', accountSchema),
    operations: modelOn(connection, 'LedgerOperation', operationSchema),
    entries: modelOn(connection, 'LedgerEntry', entrySchema),
    checkouts: modelOn(connection, 'Checkout', checkoutSchema),
    devCheckoutSessions: modelOn(connection, 'DevCheckoutSession', devCheckoutSessionSchema),
    refundRequests: modelOn(connection, 'RefundRequest', refundRequestSchema),
    refundSlots: modelOn(connection, 'RefundSlot', refundSlotSchema),
  };
  await Promise.all([
    models.accounts.init(),
    models.operations.init(),
    models.entries.init(),
    models.checkouts.init(),
    models.devCheckoutSessions.init(),
    models.refundRequests.init(),
    models.refundSlots.init(),
  ]);
  return models;
}
