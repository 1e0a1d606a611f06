import { randomBytes } from 'node:crypto';
import express, { type Express, type Request, type Response } from 'express';
import {
  giveBackCreditRequestSchema,
  internalBillingPaths,
  reserveCreditsRequestSchema,
  routes,
  userBillingParamsSchema,
  userIdSchema,
  validateRequest,
  type ApiRoute,
  type RouteBody,
  type RouteQuery,
  type RouteResponse,
  type ValidatedRequest,
} from '@productgen/contracts';
import {
  AppError,
  createHttpApp,
  parseBody,
  parseParams,
  type Logger,
  type ReadinessCheck,
} from '@productgen/service-kit';
import type { CreditService } from './credits';
import type { CheckoutService } from './payments/checkouts';
import type { DevCheckout } from './payments/dev-checkout';
import { checkTestCard, renderCheckoutPage } from './payments/dev-checkout-page';
import { PaymentProviderError, WebhookSignatureError } from './payments/provider';

/** Billing's JSON bodies are tiny; a webhook event is a few KiB (Stripe caps them well below this). */
export const BILLING_BODY_LIMIT = '64kb';
export const WEBHOOK_BODY_LIMIT = '512kb';
export const USER_ID_HEADER = 'x-user-id';
export const PAYMENT_PROVIDER_FAILED_MESSAGE = 'The payment provider could not be reached. Please try again.';

export interface BillingAppDeps {
  credits: CreditService;
  checkouts: CheckoutService;
  /** Present only in embedded mode outside production. */
  devCheckout: DevCheckout | undefined;
  /** Verifies webhooks with the active provider's secret. */
  verifyWebhook: (rawBody: Buffer, signature: string | undefined) => Parameters<CheckoutService['handleEvent']>[0];
  /** Origin of the web app, allowed as the dev checkout form's redirect target. */
  webUrl: string;
  fetchImpl: typeof fetch;
  readiness: Record<string, ReadinessCheck>;
  logger: Logger;
}

/** Validates the parts a contract route declares; bad input is a 400 whose message names every field. */
function parseRequest(route: ApiRoute, req: Request): ValidatedRequest {
  const result = validateRequest(route, { body: req.body, query: req.query });
  if (!result.ok) throw AppError.badRequest(result.message, { issues: result.issues });
  return result.data;
}

const bodyOf = <Route extends ApiRoute>(route: Route, req: Request) =>
  parseRequest(route, req).body as RouteBody<Route>;
const queryOf = <Route extends ApiRoute>(route: Route, req: Request) =>
  parseRequest(route, req).query as RouteQuery<Route>;

/** Answers with the contract's response schema, so nothing leaves that the contract does not describe. */
function reply<Route extends ApiRoute>(res: Response, route: Route, value: RouteResponse<Route>): void {
  res.json(route.response.parse(value));
}

/** The gateway's verified user (X-User-Id); billing's session routes are unreachable without it. */
function requireUserId(req: Request): string {
  const parsed = userIdSchema.safeParse(req.get(USER_ID_HEADER));
  if (!parsed.success) throw AppError.unauthorized();
  return parsed.data;
}

const sessionIdParams = routes.devCheckoutPage.request.params;

/** The address this very server listens on, as seen by the connection that brought the request. */
function ownOrigin(req: Request): string {
  const address = req.socket.localAddress ?? '127.0.0.1';
  const host = address.startsWith('::ffff:') ? address.slice(7) : address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${req.socket.localPort}`;
}

/**
 * The billing HTTP app. Stripe signs the exact bytes it sends, so the webhook body is read raw by a thin outer
 * app before the service kit's JSON parser could touch it; everything else is the usual service-kit app.
 */
export function createBillingApp(deps: BillingAppDeps): Express {
  const { credits, checkouts, devCheckout, logger } = deps;
  const app = createHttpApp({ name: 'billing', logger, readiness: deps.readiness, bodyLimit: BILLING_BODY_LIMIT });

  // ---- payments
  app.post(routes.createCheckoutSession.path, async (req, res) => {
    const userId = requireUserId(req);
    const body = bodyOf(routes.createCheckoutSession, req);
    try {
      const created = await checkouts.create(userId, body.package as 1 | 2 | 3, req.get('x-request-id'));
      reply(res, routes.createCheckoutSession, created);
    } catch (error) {
      if (error instanceof PaymentProviderError) {
        throw new AppError(502, PAYMENT_PROVIDER_FAILED_MESSAGE, undefined, { cause: error });
      }
      throw error;
    }
  });

  app.post(routes.checkPaymentSuccess.path, async (req, res) => {
    const userId = requireUserId(req);
    const body = bodyOf(routes.checkPaymentSuccess, req);
    const { paid } = await checkouts.checkSuccess(userId, body.sessionId);
    reply(res, routes.checkPaymentSuccess, { paid, credits: (await credits.billing(userId)).credits });
  });

  app.post(routes.paymentWebhook.path, async (req, res) => {
    const raw: unknown = req.body;
    if (!Buffer.isBuffer(raw) || raw.length === 0) throw AppError.badRequest('Webhook body is missing');
    let event;
    try {
      event = deps.verifyWebhook(raw, req.get('stripe-signature'));
    } catch (error) {
      if (error instanceof WebhookSignatureError) {
        throw AppError.badRequest(`Webhook signature verification failed: ${error.message}`);
      }
      throw error;
    }
    await checkouts.handleEvent(event);
    reply(res, routes.paymentWebhook, { received: true });
  });

  app.get(routes.paymentRecords.path, async (req, res) => {
    const userId = requireUserId(req);
    reply(res, routes.paymentRecords, { records: await checkouts.records(userId) });
  });

  // ---- credits
  app.get(routes.creditLog.path, async (req, res) => {
    const userId = requireUserId(req);
    const query = queryOf(routes.creditLog, req);
    reply(res, routes.creditLog, await credits.log(userId, query.page, query.pageSize));
  });

  app.post(routes.requestRefund.path, async (req, res) => {
    const userId = requireUserId(req);
    const body = bodyOf(routes.requestRefund, req);
    const answer = await credits.refund(userId, body.generationUuid, body.imageIndex, body.refundReason);
    reply(res, routes.requestRefund, answer);
  });

  // ---- internal (generation and bulk services; never routed by the gateway)
  app.post(internalBillingPaths.reserve, async (req, res) => {
    const body = parseBody(reserveCreditsRequestSchema, req.body);
    res.json(await credits.reserve(body.userId, body.generationUuid, body.count, body.description));
  });

  app.post(internalBillingPaths.giveBack, async (req, res) => {
    const body = parseBody(giveBackCreditRequestSchema, req.body);
    res.json(await credits.giveBack(body.userId, body.generationUuid, body.imageIndex, body.reason));
  });

  app.get(internalBillingPaths.userBilling, async (req, res) => {
    const { userId } = parseParams(userBillingParamsSchema, req.params);
    res.json(await credits.billing(userId));
  });

  // ---- dev checkout (embedded mode only)
  if (devCheckout) mountDevCheckout(app, devCheckout, deps);

  app.finalize();

  const outer = express();
  outer.disable('x-powered-by');
  outer.post(routes.paymentWebhook.path, express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT }));
  outer.use(app);
  return outer;
}

function mountDevCheckout(app: Express, devCheckout: DevCheckout, deps: BillingAppDeps): void {
  const webOrigin = new URL(deps.webUrl).origin;

  function sendPage(res: Response, status: number, html: string, nonce: string): void {
    res
      .status(status)
      .set({
        'Content-Security-Policy': [
          "default-src 'none'",
          `style-src 'nonce-${nonce}'`,
          // Pay posts here, then the answer redirects to the web app's success page.
          `form-action 'self' ${webOrigin}`,
          "frame-ancestors 'none'",
          "base-uri 'none'",
        ].join('; '),
        'Cache-Control': 'no-store',
        'Referrer-Policy': 'no-referrer',
      })
      .type('html')
      .send(html);
  }

  async function findSession(req: Request) {
    const { sessionId } = parseParams(sessionIdParams, req.params);
    const session = await devCheckout.find(sessionId);
    if (!session) throw AppError.notFound('Checkout session not found');
    return session;
  }

  app.get(routes.devCheckoutPage.path, async (req, res) => {
    const session = await findSession(req);
    const nonce = randomBytes(16).toString('base64');
    sendPage(res, 200, renderCheckoutPage(session, { nonce }), nonce);
  });

  app.post(routes.devCheckoutPay.path, express.urlencoded({ extended: false, limit: '8kb' }), async (req, res) => {
    const session = await findSession(req);
    const card = checkTestCard((req.body as Record<string, unknown> | undefined)?.card_number ?? '4242424242424242');
    if (!card.ok) {
      const nonce = randomBytes(16).toString('base64');
      sendPage(res, card.status, renderCheckoutPage(session, { nonce, error: card.message }), nonce);
      return;
    }
    const paid = await devCheckout.pay(session._id);
    if (!paid) throw AppError.notFound('Checkout session not found');
    // The same webhook endpoint Stripe calls, over HTTP, so the real signature check runs.
    const webhook = devCheckout.completedEvent(paid);
    const delivered = await deps.fetchImpl(`${ownOrigin(req)}${routes.paymentWebhook.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': webhook.signature },
      body: webhook.payload,
      signal: AbortSignal.timeout(15_000),
    });
    if (!delivered.ok) {
      deps.logger.error({ status: delivered.status, sessionId: paid._id }, 'dev checkout webhook was refused');
      throw new AppError(502, 'The payment could not be confirmed. Please press Pay again.');
    }
    res.redirect(303, devCheckout.successUrl(paid));
  });
}
