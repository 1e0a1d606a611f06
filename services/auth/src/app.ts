import type { Express, Request, Response } from "express";
import {
  routes,
  SESSION_KEY_HEADER,
  validateRequest,
  type ApiRoute,
  type RouteBody,
  type RouteQuery,
  type RouteResponse,
  type ValidatedRequest,
} from "@productgen/contracts";
import {
  AppError,
  createHttpApp,
  parseParams,
  type Logger,
  type ReadinessCheck,
} from "@productgen/service-kit";
import type { UserRepository } from "./data/user-repository";
import { IdentityRejectedError } from "./domain/identity";
import { planMetadataSave } from "./domain/metadata";
import { dismissesSiteUrlTooltip, toUserView } from "./domain/user";
import type { DevIdentityProvider } from "./identity/dev-idp";
import {
  firstGenerationDoneResponseSchema,
  internalPaths,
  internalUserParamsSchema,
  internalUserSchema,
  sessionVerificationSchema,
} from "./internal-api";
import type { AuthenticatedSession, SessionManager } from "./session-manager";
import type { ShopContextDeriver } from "./shop/shop-context-deriver";
import { signIn, type SignInDeps } from "./sign-in";

/** Sign-in failures all read the same (SPEC §8): the client learns nothing about why. */
export const SIGN_IN_FAILED_MESSAGE = "Failed to verify Google token";
/** Settings bodies are small; the metadata cap (16 KiB) sits well inside this. */
export const AUTH_BODY_LIMIT = "64kb";

export interface AuthAppDeps extends SignInDeps {
  users: UserRepository;
  sessions: SessionManager;
  shopContext: ShopContextDeriver;
  /** Present only when the dev identity provider is on (never in production). */
  devIdp: DevIdentityProvider | undefined;
  readiness: Record<string, ReadinessCheck>;
  logger: Logger;
}

/** Validates the parts a contract route declares; bad input is a 400 whose message names every field. */
function parseRequest(route: ApiRoute, req: Request): ValidatedRequest {
  const result = validateRequest(route, { body: req.body, query: req.query });
  if (!result.ok)
    throw AppError.badRequest(result.message, { issues: result.issues });
  return result.data;
}

const bodyOf = <Route extends ApiRoute>(route: Route, req: Request) =>
  parseRequest(route, req).body as RouteBody<Route>;
const queryOf = <Route extends ApiRoute>(route: Route, req: Request) =>
  parseRequest(route, req).query as RouteQuery<Route>;

/** Answers with the contract's response schema, so nothing leaves that the contract does not describe. */
function reply<Route extends ApiRoute>(
  res: Response,
  route: Route,
  value: RouteResponse<Route>,
): void {
  res.json(route.response.parse(value));
}

const sessionKeyHeader = SESSION_KEY_HEADER.toLowerCase();

export function createAuthApp(deps: AuthAppDeps): Express {
  const { users, sessions, shopContext, devIdp } = deps;
  const app = createHttpApp({
    name: "auth",
    logger: deps.logger,
    readiness: deps.readiness,
    bodyLimit: AUTH_BODY_LIMIT,
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

  app.post(routes.authGoogle.path, async (req, res) => {
    const body = bodyOf(routes.authGoogle, req);
    try {
      reply(res, routes.authGoogle, await signIn(deps, body));
    } catch (error) {
      if (!(error instanceof IdentityRejectedError)) throw error;
      deps.logger.warn({ reason: error.message }, "sign-in token rejected");
      throw AppError.unauthorized(SIGN_IN_FAILED_MESSAGE);
    }
  });

  app.get(routes.authMe.path, async (req, res) => {
    const { user } = await requireUser(req);
    reply(res, routes.authMe, toUserView(user));
  });

  app.post(routes.authLogout.path, async (req, res) => {
    const session = await requireSession(req);
    await sessions.revoke(session.sessionId);
    reply(res, routes.authLogout, { success: true });
  });

  // ---- settings

  app.post(routes.saveUserSettings.path, async (req, res) => {
    const { session } = await requireUser(req);
    const { site_url: siteUrl } = bodyOf(routes.saveUserSettings, req);
    const saved = await users.saveSiteUrl(session.userId, siteUrl);
    if (!saved) throw AppError.unauthorized();
    if (siteUrl !== "") shopContext.schedule(session.userId, siteUrl);
    reply(res, routes.saveUserSettings, toUserView(saved));
  });

  app.post(routes.saveUserMetadata.path, async (req, res) => {
    const { session } = await requireUser(req);
    const plan = planMetadataSave(bodyOf(routes.saveUserMetadata, req));
    if (!plan.ok) throw new AppError(plan.status, plan.message);
    const saved = await users.saveMetadata(session.userId, plan);
    if (saved === "not_found") throw AppError.unauthorized();
    if (saved !== "saved") throw new AppError(saved.status, saved.message);
    reply(res, routes.saveUserMetadata, { success: true });
  });

  app.post(routes.closeTooltip.path, async (req, res) => {
    const { session } = await requireUser(req);
    const { name } = bodyOf(routes.closeTooltip, req);
    const outcome = await users.dismissTooltip(
      session.userId,
      name,
      dismissesSiteUrlTooltip(name),
    );
    if (outcome === "not_found") throw AppError.unauthorized();
    if (outcome === "full")
      throw AppError.badRequest("Too many different tips dismissed");
    reply(res, routes.closeTooltip, { success: true });
  });

  app.post(routes.saveReferralSource.path, async (req, res) => {
    const { session } = await requireUser(req);
    const { source } = bodyOf(routes.saveReferralSource, req);
    await users.saveReferralSource(session.userId, source, deps.now());
    reply(res, routes.saveReferralSource, { success: true });
  });

  app.get(routes.hasSeenReferralForm.path, async (req, res) => {
    const { session } = await requireUser(req);
    reply(res, routes.hasSeenReferralForm, {
      hasSeen: await users.hasSeenReferralForm(session.userId),
    });
  });

  // ---- dev identity provider (404 unless enabled, and never in production)

  app.get(routes.devIdpCredential.path, async (req, res) => {
    const provider = requireDevIdp();
    const query = queryOf(routes.devIdpCredential, req);
    const credential = await provider.issueCredential(
      {
        email: query.email,
        givenName: query.given_name,
        familyName: query.family_name,
      },
      deps.now(),
    );
    reply(res, routes.devIdpCredential, { credential });
  });

  app.get("/dev-idp/jwks.json", (_req, res) => {
    res.json(requireDevIdp().jwks);
  });

  // ---- internal (service network only)

  app.get(internalPaths.verifySession, async (req, res) => {
    const session = await requireSession(req);
    res.json(sessionVerificationSchema.parse({ userId: session.userId }));
  });

  app.get(internalPaths.user, async (req, res) => {
    const { id } = parseParams(internalUserParamsSchema, req.params);
    const user = await users.findById(id);
    if (!user) throw AppError.notFound("User not found");
    res.json(
      internalUserSchema.parse({
        ...toUserView(user),
        brand_colors: user.brandColors,
      }),
    );
  });

  app.post(internalPaths.firstGenerationDone, async (req, res) => {
    const { id } = parseParams(internalUserParamsSchema, req.params);
    if (!(await users.markFirstGenerationDone(id)))
      throw AppError.notFound("User not found");
    res.json(firstGenerationDoneResponseSchema.parse({ success: true }));
  });

  return app.finalize();
}
