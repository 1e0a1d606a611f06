import type { Express, Request } from 'express';
import { authInternalRoutes, routes, SESSION_KEY_HEADER } from '@productgen/contracts';
import {
  AppError,
  createHttpApp,
  serveRoute,
  type Logger,
  type ReadinessCheck,
  type ServiceIdentity,
  type UsageQuota,
} from '@productgen/service-kit';
import type { UserRepository } from './data/user-repository';
import { IdentityRejectedError } from './domain/identity';
import { planMetadataSave } from './domain/metadata';
import { dismissesSiteUrlTooltip, toUserView } from './domain/user';
import type { DevIdentityProvider } from './identity/dev-idp';
import { publishSessionRevoked } from './messaging/publishers';
import type { AuthenticatedSession, SessionManager } from './session-manager';
import type { ShopContextDeriver } from './shop/shop-context-deriver';
import { signIn, type SignInDeps } from './sign-in';

/** Sign-in failures all read the same (SPEC §8): the client learns nothing about why. */
export const SIGN_IN_FAILED_MESSAGE = 'Failed to verify Google token';
/** Settings bodies are small; the metadata cap (16 KiB) sits well inside this. */
export const AUTH_BODY_LIMIT = '64kb';

export interface AuthAppDeps extends SignInDeps {
  users: UserRepository;
  sessions: SessionManager;
  shopContext: ShopContextDeriver;
  /** Per-user limit of the website reads settings saves start, shared by every replica. */
  siteFetches: UsageQuota;
  /** Present only when the dev identity provider is on (never in production). */
  devIdp: DevIdentityProvider | undefined;
  readiness: Record<string, ReadinessCheck>;
  logger: Logger;
  /** Verifies every caller (the gateway, other services). */
  serviceIdentity: ServiceIdentity;
}

const sessionKeyHeader = SESSION_KEY_HEADER.toLowerCase() as 'x-session-key';

export function createAuthApp(deps: AuthAppDeps): Express {
  const { users, sessions, shopContext, devIdp } = deps;
  const app = createHttpApp({
    name: 'auth',
    logger: deps.logger,
    readiness: deps.readiness,
    bodyLimit: AUTH_BODY_LIMIT,
    serviceIdentity: deps.serviceIdentity,
  });

  async function requireSession(req: Request): Promise<AuthenticatedSession> {
    const session = await sessions.authenticate(req.get(sessionKeyHeader));
    if (!session) throw AppError.unauthorized();
    return session;
  }

  /** The signed-in user; a session whose user is gone counts as no session. */
  async function requireUser(req: Request) {
    const session = await requireSession(req);
    const user = await users.findById(session.userId);
    if (!user) throw AppError.unauthorized();
    return { session, user };
  }

  function requireDevIdp(): DevIdentityProvider {
    if (!devIdp) throw AppError.notFound();
    return devIdp;
  }

  // ---- sign-in and session

  serveRoute(app, routes.authGoogle, async (input) => {
    try {
      return await signIn(deps, input.body);
    } catch (error) {
      if (!(error instanceof IdentityRejectedError)) throw error;
      deps.logger.warn({ reason: error.message }, 'sign-in token rejected');
      throw AppError.unauthorized(SIGN_IN_FAILED_MESSAGE);
    }
  });

  serveRoute(app, routes.authMe, async (_input, req) => toUserView((await requireUser(req)).user));

  serveRoute(app, routes.authLogout, async (_input, req) => {
    const session = await requireSession(req);
    await sessions.revoke(session.sessionId);
    try {
      await publishSessionRevoked(deps.bus, session, deps.now());
    } catch (error) {
      // The session is gone from the database; gateway replicas that cached it still accept it until their cache
      // entry expires (SESSION_CACHE_TTL_MS), as they did before revocations were announced.
      deps.logger.error({ err: error, userId: session.userId }, 'session.revoked not published');
    }
    return { success: true as const };
  });

  // ---- settings

  serveRoute(app, routes.saveUserSettings, async (input, req) => {
    const { session } = await requireUser(req);
    const { site_url: siteUrl } = input.body;
    // Refused before saving, so the address saved is always the one whose shop context is being derived.
    if (siteUrl !== '') await deps.siteFetches.take(session.userId, deps.now());
    const saved = await users.saveSiteUrl(session.userId, siteUrl);
    if (!saved) throw AppError.unauthorized();
    if (siteUrl !== '') shopContext.schedule(session.userId, siteUrl);
    return toUserView(saved);
  });

  serveRoute(app, routes.saveUserMetadata, async (input, req) => {
    const { session } = await requireUser(req);
    const plan = planMetadataSave(input.body);
    if (!plan.ok) throw new AppError(plan.status, plan.message);
    const saved = await users.saveMetadata(session.userId, plan);
    if (saved === 'not_found') throw AppError.unauthorized();
    if (saved !== 'saved') throw new AppError(saved.status, saved.message);
    return { success: true as const };
  });

  serveRoute(app, routes.closeTooltip, async (input, req) => {
    const { session } = await requireUser(req);
    const { name } = input.body;
    const outcome = await users.dismissTooltip(session.userId, name, dismissesSiteUrlTooltip(name));
    if (outcome === 'not_found') throw AppError.unauthorized();
    if (outcome === 'full') throw AppError.badRequest('Too many different tips dismissed');
    return { success: true as const };
  });

  serveRoute(app, routes.saveReferralSource, async (input, req) => {
    const { session } = await requireUser(req);
    const { source } = input.body;
    await users.saveReferralSource(session.userId, source, deps.now());
    return { success: true as const };
  });

  serveRoute(app, routes.hasSeenReferralForm, async (_input, req) => {
    const { session } = await requireUser(req);
    return { hasSeen: await users.hasSeenReferralForm(session.userId) };
  });

  // ---- dev identity provider (404 unless enabled, and never in production)

  serveRoute(app, routes.devIdpCredential, async (input) => {
    const provider = requireDevIdp();
    const query = input.query;
    const credential = await provider.issueCredential(
      { email: query.email, givenName: query.given_name, familyName: query.family_name },
      deps.now(),
    );
    return { credential };
  });

  app.get('/dev-idp/jwks.json', (_req, res) => {
    res.json(requireDevIdp().jwks);
  });

  // ---- internal (service network only; declared in the contracts' authInternalRoutes)

  serveRoute(app, authInternalRoutes.verifySession, async (input) => {
    const session = await sessions.authenticate(input.headers[sessionKeyHeader]);
    if (!session) throw AppError.unauthorized();
    return { userId: session.userId };
  });

  serveRoute(app, authInternalRoutes.getUser, async (input) => {
    const user = await users.findById(input.params.id);
    if (!user) throw AppError.notFound('User not found');
    return { ...toUserView(user), brand_colors: user.brandColors };
  });

  serveRoute(app, authInternalRoutes.markFirstGenerationDone, async (input) => {
    if (!(await users.markFirstGenerationDone(input.params.id))) throw AppError.notFound('User not found');
    return { success: true as const };
  });

  return app.finalize();
}
