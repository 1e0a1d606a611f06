import { z } from 'zod';
import { SESSION_KEY_HEADER } from '../limits';
import { successSchema, userIdSchema, userSchema } from '../entities';
import { defineInternalRoute } from './route';

/** Auth's internal endpoints: the gateway's session check, and the user as other services need it. */

/** The session key header in the lower case Node delivers. */
const sessionKeyHeader = SESSION_KEY_HEADER.toLowerCase() as 'x-session-key';

export const sessionVerificationSchema = z.object({ userId: userIdSchema });
export type SessionVerification = z.infer<typeof sessionVerificationSchema>;

/** The user plus what only other services need (brand colours for the renderer). */
export const internalUserSchema = userSchema.extend({ brand_colors: z.array(z.string()) });
export type InternalUser = z.infer<typeof internalUserSchema>;

export const internalUserParamsSchema = z.object({ id: userIdSchema });

export const authInternalRoutes = {
  verifySession: defineInternalRoute({
    id: 'verifySession',
    owner: 'auth',
    method: 'GET',
    path: '/internal/sessions/verify',
    summary: 'Whose session a key is (the gateway asks for every request that carries one).',
    // Optional: a missing key is a 401 like an unknown one, never a 400.
    request: { headers: z.object({ [sessionKeyHeader]: z.string().optional() }) },
    response: sessionVerificationSchema,
    errorStatuses: [401],
  }),
  getUser: defineInternalRoute({
    id: 'getUser',
    owner: 'auth',
    method: 'GET',
    path: '/internal/users/:id',
    summary: 'A user with their shop context and brand colours.',
    request: { params: internalUserParamsSchema },
    response: internalUserSchema,
    errorStatuses: [404],
  }),
  markFirstGenerationDone: defineInternalRoute({
    id: 'markFirstGenerationDone',
    owner: 'auth',
    method: 'POST',
    path: '/internal/users/:id/first-generation-done',
    summary: 'Records that the user finished a first generation.',
    request: { params: internalUserParamsSchema },
    response: successSchema,
    errorStatuses: [404],
  }),
} as const;
