import { z } from 'zod';
import { userIdSchema, uuidSchema } from './entities';
import { limits } from './limits';

/*
 * Billing's internal endpoints, for the generation and bulk services only. The gateway never routes /internal/*
 * (they are not in the public route table), so they are reachable on the service network alone.
 *
 * Retries are always safe: a reservation is keyed by generationUuid and charges the images gen:<uuid>:0..count-1,
 * each a unique ledger source; a give-back is keyed by (generationUuid, imageIndex) as refund:<uuid>:<index>.
 * Sending the same request again answers the same and never charges or refunds twice.
 */

/** Largest reservation: a batch of 200 products × 5 images (SPEC §9). */
export const maxCreditsPerReservation = limits.maxBatchResults;

/** Text of the 402 answer when the balance is below the count; the create screen shows it as is (SPEC §5). */
export const OUT_OF_CREDITS_MESSAGE = 'Out of credits! Top up to keep the magic going.';

export const internalBillingPaths = {
  reserve: '/internal/credits/reserve',
  giveBack: '/internal/credits/give-back',
  /** Express-style; `internalBillingUserPath(userId)` builds a concrete one. */
  userBilling: '/internal/users/:userId/billing',
} as const;

export function internalBillingUserPath(userId: string): string {
  return `/internal/users/${encodeURIComponent(userId)}/billing`;
}

/** Index of a charged image inside its reservation (0..count-1). */
export const reservedImageIndexSchema = z
  .number({ error: 'must be a whole number' })
  .int({ error: 'must be a whole number' })
  .min(0, { error: `must be between 0 and ${maxCreditsPerReservation - 1}` })
  .max(maxCreditsPerReservation - 1, { error: `must be between 0 and ${maxCreditsPerReservation - 1}` });

/**
 * POST /internal/credits/reserve: debit `count` credits for a generation, all or nothing.
 * 200 → `reserveCreditsResponseSchema`; 402 `{code: 402, error: OUT_OF_CREDITS_MESSAGE}` when the balance is below
 * `count` (nothing is debited). A retry with the same generationUuid answers the same 200 without charging again;
 * the same uuid with a different userId or count is a 409.
 */
export const reserveCreditsRequestSchema = z.object({
  userId: userIdSchema,
  generationUuid: uuidSchema,
  count: z
    .number({ error: 'must be a whole number' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: `must be between 1 and ${maxCreditsPerReservation}` })
    .max(maxCreditsPerReservation, { error: `must be between 1 and ${maxCreditsPerReservation}` }),
  /** Credit-log text; defaults to "Image generation". */
  description: z.string().trim().min(1).max(255).optional(),
});
export type ReserveCreditsRequest = z.infer<typeof reserveCreditsRequestSchema>;

export const reserveCreditsResponseSchema = z.object({
  /** Balance right after this reservation was applied. */
  balance: z.number().int().nonnegative(),
  /** True while the user has never purchased credits: the images get a watermark (SPEC §6). */
  watermark: z.boolean(),
});
export type ReserveCreditsResponse = z.infer<typeof reserveCreditsResponseSchema>;

/** Why an image's credit goes back: a failed render or a batch product skipped after its credits were reserved. */
export const giveBackReasonSchema = z.enum(['failed', 'skipped']);
export type GiveBackReason = z.infer<typeof giveBackReasonSchema>;

/**
 * POST /internal/credits/give-back: return one charged image's credit, at most once per (generationUuid, imageIndex).
 * `refunded` is false when it was already given back (by an earlier call or a user refund) or never charged.
 */
export const giveBackCreditRequestSchema = z.object({
  userId: userIdSchema,
  generationUuid: uuidSchema,
  imageIndex: reservedImageIndexSchema,
  reason: giveBackReasonSchema,
});
export type GiveBackCreditRequest = z.infer<typeof giveBackCreditRequestSchema>;

export const giveBackCreditResponseSchema = z.object({
  balance: z.number().int().nonnegative(),
  refunded: z.boolean(),
});
export type GiveBackCreditResponse = z.infer<typeof giveBackCreditResponseSchema>;

/** GET /internal/users/:userId/billing: the balance and whether the user ever purchased (no watermark then). */
export const userBillingParamsSchema = z.object({ userId: userIdSchema });
export const userBillingSchema = z.object({
  credits: z.number().int().nonnegative(),
  purchaser: z.boolean(),
});
export type UserBilling = z.infer<typeof userBillingSchema>;
