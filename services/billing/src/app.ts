import { randomBytes } from 'node:crypto';
import express, { type Express, type Request, type Response } from 'express';
import { billingInternalRoutes, routes, WEB_ORIGIN_HEADER } from '@productgen/contracts';
import {
  AppError,
  createHttpApp,
  parseParams,
  requireGatewayUser,
  serveRoute,
  SERVICE_TOKEN_HEADER,
  type Logger,
  type ReadinessCheck,
  type ServiceIdentity,
} from '@productgen/service-kit';
import type { CreditService } from './credits';
import type { CheckoutService } from './payments/checkouts';
import type { DevCheckout } from './payments/dev-checkout';
import type { DevCheckoutSessionDocument } from './data/models';
import { checkTestCard, renderCheckoutPage } from './payments/dev-checkout-page';
import { PaymentProviderError, WebhookSignatureError } from './payments/provider';

/** Billing's JSON bodies are tiny; a webhook event is a few KiB (Stripe caps them well below this). */
export const BILLING_BODY_LIMIT = '64kb';
export const WEBHOOK_BODY_LIMIT = '512kb';
export const PAYMENT_PROVIDER_FAILED_MESSAGE = 'The payment provider could not be reached. Please try again.';

export interface BillingAppDeps {
  credits: CreditService;
  checkouts: CheckoutService;
  /** Present only in embedded mode outside production. */
  devCheckout: DevCheckout | undefined;
  /** Verifies webhooks with the active provider's secret. */
  verifyWebhook: (rawBody: Buffer, signature: string | undefined) => Parameters<CheckoutService['handleEvent']>[0];
  fetchImpl: typeof fetch;
  readiness: Record<string, ReadinessCheck>;
  logger: Logger;
  /** Verifies every caller (the gateway, other services); signs the dev checkout's own webhook call. */
  serviceIdentity: ServiceIdentity;
}

const sessionIdParams = routes.devCheckoutPage.request.params;

/** The API origin the buyer called, from the headers the gateway sets (a client's own are dropped there). */
function addressedApiOrigin(req: Request): string | undefined {
  const proto = req.get('x-forwarded-proto');
  const host = req.get('x-forwarded-host');
  return proto && host ? `${proto}://${host}` : undefined;
}

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
  const app = createHttpApp({
    name: 'billing',
    logger,
    readiness: deps.readiness,
    bodyLimit: BILLING_BODY_LIMIT,
    serviceIdentity: deps.serviceIdentity,
  });

  // ---- payments
  serveRoute(app, routes.createCheckoutSession, async (input, req) => {
    const userId = requireGatewayUser(req);
    const body = input.body;
    try {
      return await checkouts.create(userId, body.package as 1 | 2 | 3, {
        requestId: req.get('x-request-id'),
        webOrigin: req.get(WEB_ORIGIN_HEADER),
        apiOrigin: addressedApiOrigin(req),
      });
    } catch (error) {
      if (error instanceof PaymentProviderError) {
        throw new AppError(502, PAYMENT_PROVIDER_FAILED_MESSAGE, undefined, { cause: error });
      }
      throw error;
    }
  });

  serveRoute(app, routes.checkPaymentSuccess, async (input, req) => {
    const userId = requireGatewayUser(req);
    const { paid } = await checkouts.checkSuccess(userId, input.body.sessionId);
    return { paid, credits: (await credits.billing(userId)).credits };
  });

  // Raw body (Stripe signs the exact bytes): read here, never through the JSON parser.
  serveRoute(app, routes.paymentWebhook, async (_input, req) => {
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
    return { received: true as const };
  });

  serveRoute(app, routes.paymentRecords, async (_input, req) => ({
    records: await checkouts.records(requireGatewayUser(req)),
  }));

  // ---- credits
  serveRoute(app, routes.creditLog, async (input, req) => {
    const userId = requireGatewayUser(req);
    return credits.log(userId, input.query.page, input.query.pageSize);
  });

  serveRoute(app, routes.requestRefund, async (input, req) => {
    const userId = requireGatewayUser(req);
    const body = input.body;
    return credits.refund(userId, body.generationUuid, body.imageIndex, body.refundReason);
  });

  // ---- internal (generation and bulk services; declared in the contracts' billingInternalRoutes)
  serveRoute(app, billingInternalRoutes.reserveCredits, (input) => {
    const body = input.body;
    return credits.reserve(body.userId, body.generationUuid, body.count, body.description);
  });

  serveRoute(app, billingInternalRoutes.reserveBatchCredits, (input) => {
    const body = input.body;
    return credits.reserveBatch(body.userId, body.batchUuid, body.items, body.description);
  });

  serveRoute(app, billingInternalRoutes.giveBackCredit, (input) => {
    const body = input.body;
    return credits.giveBack(body.userId, body.generationUuid, body.imageIndex, body.reason);
  });

  serveRoute(app, billingInternalRoutes.userBilling, (input) => credits.billing(input.params.userId));

  serveRoute(app, billingInternalRoutes.reservationState, (input) =>
    credits.reservationState(input.params.userId, input.params.generationUuid),
  );

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
  /** The page of one session; Pay redirects to that session's success URL, so the CSP allows its origin. */
  function sendPage(res: Response, status: number, session: DevCheckoutSessionDocument, error?: string): void {
    const nonce = randomBytes(16).toString('base64');
    const html = renderCheckoutPage(session, { nonce, error });
    res
      .status(status)
      .set({
        'Content-Security-Policy': [
          "default-src 'none'",
          `style-src 'nonce-${nonce}'`,
          // Pay posts here, then the answer redirects to the web app's success page.
          `form-action 'self' ${new URL(session.success_url).origin}`,
          "frame-ancestors 'none'",
          "base-uri 'none'",
        ].join('; '),
        'Cache-Control': 'no-store',
        // Not no-referrer: under it Chromium sends Pay's form post with Origin: null, which the gateway refuses as
        // cross-site. same-origin still gives the web app's success page no referrer.
        'Referrer-Policy': 'same-origin',
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
    sendPage(res, 200, await findSession(req));
  });

  app.post(routes.devCheckoutPay.path, express.urlencoded({ extended: false, limit: '8kb' }), async (req, res) => {
    const session = await findSession(req);
    const card = checkTestCard((req.body as Record<string, unknown> | undefined)?.card_number ?? '4242424242424242');
    if (!card.ok) {
      sendPage(res, card.status, session, card.message);
      return;
    }
    const paid = await devCheckout.pay(session._id);
    if (!paid) throw AppError.notFound('Checkout session not found');
    // The same webhook endpoint Stripe calls, over HTTP, so the real signature check runs.
    const webhook = devCheckout.completedEvent(paid);
    const delivered = await deps.fetchImpl(`${ownOrigin(req)}${routes.paymentWebhook.path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': webhook.signature,
        [SERVICE_TOKEN_HEADER]: await deps.serviceIdentity.sign(),
      },
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
