import { z } from 'zod';
import { SESSION_KEY_HEADER, successSchema, userIdSchema, userSchema } from '@productgen/contracts';

/*
 * Endpoints for other services only: the gateway never routes /internal/* from the outside (they are not in the
 * public route table), so they are reachable on the service network alone.
 */

/** GET /internal/sessions/verify with X-Session-Key: whose session it is (401 when none). */
export const sessionVerificationSchema = z.object({ userId: userIdSchema });
export type SessionVerification = z.infer<typeof sessionVerificationSchema>;

/** GET /internal/users/:id: the user plus what only other services need (brand colours for the renderer). */
export const internalUserSchema = userSchema.extend({ brand_colors: z.array(z.string()) });
export type InternalUser = z.infer<typeof internalUserSchema>;

export const internalUserParamsSchema = z.object({ id: userIdSchema });

export const internalPaths = {
  verifySession: '/internal/sessions/verify',
  user: '/internal/users/:id',
  firstGenerationDone: '/internal/users/:id/first-generation-done',
} as const;

export const firstGenerationDoneResponseSchema = successSchema;
export { SESSION_KEY_HEADER };
