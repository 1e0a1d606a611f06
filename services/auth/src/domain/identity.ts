import { z } from 'zod';

/** Who signed in, as the identity provider vouches for them. */
export interface VerifiedIdentity {
  provider: 'google' | 'dev';
  /** The provider's stable account id (`sub`). */
  subject: string;
  email: string;
  name: string;
  givenName: string;
  familyName: string;
  picture: string;
}

/** Google sends email_verified as a boolean in ID tokens and sometimes as "true"/"false" from tokeninfo. */
const emailVerifiedSchema = z.union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')]);

/** The claims we read from an ID token or a userinfo answer; anything else is ignored. */
export const identityClaimsSchema = z.object({
  sub: z.string().min(1).max(255),
  email: z.email().max(320),
  email_verified: emailVerifiedSchema.optional(),
  name: z.string().max(512).optional(),
  given_name: z.string().max(255).optional(),
  family_name: z.string().max(255).optional(),
  picture: z.string().max(2048).optional(),
});
export type IdentityClaims = z.infer<typeof identityClaimsSchema>;

export class IdentityRejectedError extends Error {
  override name = 'IdentityRejectedError';
}

/**
 * Turns verified claims into an identity. The address must be one the provider vouches for (`email_verified:
 * true`): an account is found by its address, so an unverified one (or a token that does not say) could take over
 * the account of whoever owns that address.
 */
export function identityFromClaims(provider: VerifiedIdentity['provider'], claims: unknown): VerifiedIdentity {
  const parsed = identityClaimsSchema.safeParse(claims);
  if (!parsed.success) throw new IdentityRejectedError(`identity claims unusable: ${parsed.error.message}`);
  const { sub, email, email_verified, name, given_name, family_name, picture } = parsed.data;
  if (email_verified !== true) throw new IdentityRejectedError('email address is not verified');
  const givenName = given_name?.trim() ?? '';
  const familyName = family_name?.trim() ?? '';
  const fullName = name?.trim() || [givenName, familyName].filter(Boolean).join(' ') || email.split('@')[0] || email;
  return {
    provider,
    subject: sub,
    email: email.toLowerCase(),
    name: fullName,
    givenName,
    familyName,
    picture: picture && /^https?:\/\//i.test(picture) ? picture : '',
  };
}

export function subjectKey(identity: Pick<VerifiedIdentity, 'provider' | 'subject'>): string {
  return `${identity.provider}:${identity.subject}`;
}
