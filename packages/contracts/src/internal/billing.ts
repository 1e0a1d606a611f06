import { z } from 'zod';
import { userIdSchema, uuidSchema } from '../entities';
import { limits } from '../limits';
import { defineInternalRoute } from './route';

/*
 * Billing's internal endpoints, for the generation and bulk services only (declared in `billingInternalRoutes`
 * below). Retries are always safe: sending an accepted reservation or a give-back again answers the same and never
 * charges or refunds twice. A refused reservation (402) is not remembered: after a top-up the same generation can
 * reserve again, with any count.
 *
 * Keys: a reservation is keyed by its generation (`reserve:<generationUuid>`) and charges the images
 * `gen:<generationUuid>:0..count-1`; a give-back or refund is `refund:<generationUuid>:<imageIndex>`. So one
 * generation is charged at most once, for one count: the caller sends a new generationUuid for every new set of
 * images (generation makes a new generation for a second Create on the same photo), and the same one only to retry,
 * with the same count, or after a 402.
 */

/** Largest reservation: a batch of 200 products × 5 images (SPEC §9). */
export const maxCreditsPerReservation = limits.maxBatchResults;

/** Text of the 402 answer when the balance is below the count; the create screen shows it as is (SPEC §5). */
export const OUT_OF_CREDITS_MESSAGE = 'Out of credits! Top up to keep the magic going.';

/** Text of the 409 answer when a generation id comes back with another user or count than its accepted reservation. */
export const RESERVATION_CONFLICT_MESSAGE = 'This generation id was already used for a different reservation.';

/** Index of a charged image inside its reservation (0..count-1). */
export const reservedImageIndexSchema = z
  .number({ error: 'must be a whole number' })
  .int({ error: 'must be a whole number' })
  .min(0, { error: `must be between 0 and ${maxCreditsPerReservation - 1}` })
  .max(maxCreditsPerReservation - 1, { error: `must be between 0 and ${maxCreditsPerReservation - 1}` });

/**
 * POST /internal/credits/reserve: debit `count` credits for a generation, all or nothing.
 * 200 → `reserveCreditsResponseSchema`; 402 `{code: 402, error: OUT_OF_CREDITS_MESSAGE}` when the balance is below
 * `count` (nothing is debited, nothing is remembered). A retry of an accepted reservation (same generationUuid,
 * userId and count) answers 200 without charging again.
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

/**
 * GET /internal/users/:userId/reservations/:generationUuid: whether a generation's reservation was applied, for the
 * generation sweeper finishing a creation whose process stopped between reserving and queueing. `charged`: `images`
 * credits were debited for it; `pending`: billing is still applying it (ask again later); `none`: nothing was
 * debited (refused, or never received).
 */
export const reservationStateParamsSchema = z.object({ userId: userIdSchema, generationUuid: uuidSchema });
export const reservationStateSchema = z.object({
  state: z.enum(['charged', 'pending', 'none']),
  images: z.number().int().nonnegative(),
  /** True while the user has never purchased credits, as in the reservation's answer. */
  watermark: z.boolean(),
});
export type ReservationState = z.infer<typeof reservationStateSchema>;

/**
 * POST /internal/credits/reserve-batch: debit a whole batch at once, all or nothing (bulk, before any product is
 * handed over): `count` credits per item as gen:<generationUuid>:0..count-1, so each image can be given back on its
 * own later exactly as a single generation's. 402 `{code: 402, error: OUT_OF_CREDITS_MESSAGE}` when the balance is
 * below the total (nothing is debited). A retry with the same batchUuid and content answers the same 200.
 */
export const reserveBatchCreditsRequestSchema = z.object({
  userId: userIdSchema,
  batchUuid: uuidSchema,
  items: z
    .array(
      z.object({
        generationUuid: uuidSchema,
        count: z.number().int().min(1).max(limits.maxImagesPerGeneration),
      }),
    )
    .min(1)
    .max(limits.maxBatchImages)
    .refine((items) => new Set(items.map((item) => item.generationUuid)).size === items.length, {
      error: 'must name each generation once',
    }),
  /** Credit-log text of every entry; defaults to "Batch creation". */
  description: z.string().trim().min(1).max(255).optional(),
});
export type ReserveBatchCreditsRequest = z.infer<typeof reserveBatchCreditsRequestSchema>;

export const billingInternalRoutes = {
  reserveBatchCredits: defineInternalRoute({
    id: 'reserveBatchCredits',
    owner: 'billing',
    method: 'POST',
    path: '/internal/credits/reserve-batch',
    summary: "Debits every image of a batch's products, all or nothing.",
    request: { body: reserveBatchCreditsRequestSchema },
    response: reserveCreditsResponseSchema,
    errorStatuses: [402, 409, 503],
  }),
  reserveCredits: defineInternalRoute({
    id: 'reserveCredits',
    owner: 'billing',
    method: 'POST',
    path: '/internal/credits/reserve',
    summary: "Debits a generation's images, all or nothing.",
    request: { body: reserveCreditsRequestSchema },
    response: reserveCreditsResponseSchema,
    errorStatuses: [402, 409, 503],
  }),
  giveBackCredit: defineInternalRoute({
    id: 'giveBackCredit',
    owner: 'billing',
    method: 'POST',
    path: '/internal/credits/give-back',
    summary: "Returns one charged image's credit, at most once.",
    request: { body: giveBackCreditRequestSchema },
    response: giveBackCreditResponseSchema,
    errorStatuses: [503],
  }),
  userBilling: defineInternalRoute({
    id: 'userBilling',
    owner: 'billing',
    method: 'GET',
    path: '/internal/users/:userId/billing',
    summary: 'The balance and whether the user ever purchased.',
    request: { params: userBillingParamsSchema },
    response: userBillingSchema,
  }),
  reservationState: defineInternalRoute({
    id: 'reservationState',
    owner: 'billing',
    method: 'GET',
    path: '/internal/users/:userId/reservations/:generationUuid',
    summary: "Whether a generation's reservation was applied (charged, pending or none).",
    request: { params: reservationStateParamsSchema },
    response: reservationStateSchema,
  }),
} as const;
