import type { MessageBus } from '@productgen/bus';
import type { AuthGoogleRequest, AuthSession } from '@productgen/contracts';
import type { Logger } from '@productgen/service-kit';
import type { UserRepository } from './data/user-repository';
import type { VerifiedIdentity } from './domain/identity';
import { toUserView } from './domain/user';
import type { TokenVerifier } from './identity/token-verifier';
import { publishUserSignedUp } from './messaging/publishers';
import type { SessionManager } from './session-manager';

export interface SignInDeps {
  verifier: TokenVerifier;
  users: UserRepository;
  sessions: SessionManager;
  bus: MessageBus;
  logger: Logger;
  now: () => Date;
}

/**
 * POST /auth/google: verify the token (an IdentityRejectedError means no session), find or create the account,
 * announce a new account once, and start a session.
 */
export async function signIn(deps: SignInDeps, request: AuthGoogleRequest): Promise<AuthSession> {
  const identity: VerifiedIdentity = request.credential
    ? await deps.verifier.verifyIdToken(request.credential)
    : await deps.verifier.verifyAccessToken(request.access_token ?? '');
  const refCode = request.ref_code?.trim() || null;
  const outcome = await deps.users.signIn(identity, refCode);
  if (!outcome.signupPublished) await announceSignUp(deps, outcome.user);
  const sessionKey = await deps.sessions.issue(outcome.user.id);
  return { session_key: sessionKey, user: toUserView(outcome.user) };
}

/**
 * Publishes user.signed_up and records that it went out. If the broker is down the sign-in still succeeds and
 * the next sign-in tries again; the fixed message id lets consumers drop a repeat.
 */
async function announceSignUp(deps: SignInDeps, user: Parameters<typeof publishUserSignedUp>[1]): Promise<void> {
  try {
    await publishUserSignedUp(deps.bus, user, deps.now());
    await deps.users.markSignupPublished(user.id);
  } catch (error) {
    deps.logger.error({ err: error, userId: user.id }, 'user.signed_up not published; will retry at next sign-in');
  }
}
