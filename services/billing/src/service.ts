import type { Express } from 'express';
import type { Connection } from 'mongoose';
import type { MessageBus, Subscription } from '@productgen/bus';
import { createServiceIdentity, devFeaturesEnabled, periodicTask, type Logger } from '@productgen/service-kit';
import { createBillingApp } from './app';
import { paymentProviderKind, type BillingConfig } from './config';
import { CreditService } from './credits';
import { Ledger } from './data/ledger';
import { createModels } from './data/models';
import { RefundSlots } from './data/refund-slots';
import { refundLimitFromHours } from './domain/refund-policy';
import { subscribeConsumers } from './messaging/consumers';
import { ledgerChangePublisher, paymentCompletedPublisher } from './messaging/publishers';
import { CheckoutService } from './payments/checkouts';
import { createDevCheckout, type DevCheckout } from './payments/dev-checkout';
import type { PaymentProvider } from './payments/provider';
import { createStripeProvider } from './payments/stripe-provider';

export interface BillingServiceDeps {
  config: BillingConfig;
  logger: Logger;
  /** The service's own database (e.g. dbName 'billing'); the caller opens and closes it. */
  mongo: Connection;
  /** The caller creates and closes the bus. */
  bus: MessageBus;
  /** Used for Stripe's API and the dev checkout's webhook delivery; defaults to the global fetch. */
  fetchImpl?: typeof fetch;
  /** Time source for the ledger, webhook replay window and refund limit; tests move it forward. */
  now?: () => Date;
}

export interface BillingService {
  app: Express;
  /** Subscribes the consumers (user.signed_up), finishes what a crash left, and starts the periodic sweep. */
  start(): Promise<void>;
  /** Stops the consumers and the sweep; leaves the connection and bus to their owner. */
  stop(): Promise<void>;
  /** Which payment provider checkout uses. */
  provider: 'stripe' | 'dev';
  /** The balance and purchaser flag of a user (what the internal billing endpoint answers). */
  billingOf(userId: string): Promise<{ credits: number; purchaser: boolean }>;
  /** Runs the crash-recovery sweep once (also run on start and periodically). */
  recover(): Promise<{ finished: number; republished: number }>;
}

/** One factory for every way of running: the embedded launcher and main.ts both call it. */
export async function createBillingService(deps: BillingServiceDeps): Promise<BillingService> {
  const { config, bus } = deps;
  const logger = deps.logger.child({ component: 'billing' });
  const now = deps.now ?? (() => new Date());
  const fetchImpl = deps.fetchImpl ?? fetch;

  const models = await createModels(deps.mongo);
  const ledger = new Ledger(models, {
    staleMs: config.LEDGER_STALE_OPERATION_MS,
    now,
    logger,
    publish: ledgerChangePublisher(bus, now),
  });
  const refundLimit = refundLimitFromHours(config.REFUND_LIMIT_PER_WINDOW, config.REFUND_LIMIT_WINDOW_HOURS);
  const credits = new CreditService(
    ledger,
    models.refundRequests,
    new RefundSlots(models.refundSlots, refundLimit),
    refundLimit,
    now,
  );

  const kind = paymentProviderKind(config);
  if (kind === 'dev' && !devFeaturesEnabled(config)) {
    throw new Error(
      `The dev checkout is refused with NODE_ENV=${config.NODE_ENV}: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET`,
    );
  }
  let devCheckout: DevCheckout | undefined;
  let provider: PaymentProvider;
  if (kind === 'stripe') {
    provider = createStripeProvider({
      secretKey: config.STRIPE_SECRET_KEY ?? '',
      webhookSecret: config.STRIPE_WEBHOOK_SECRET ?? '',
      toleranceSeconds: config.WEBHOOK_TOLERANCE_SECONDS,
      timeoutMs: config.STRIPE_TIMEOUT_MS,
      host: config.STRIPE_API_HOST,
      port: config.STRIPE_API_PORT,
      protocol: config.STRIPE_API_PROTOCOL,
      fetchImpl: deps.fetchImpl,
    });
  } else {
    devCheckout = createDevCheckout({
      sessions: models.devCheckoutSessions,
      webhookSecret: config.DEV_CHECKOUT_WEBHOOK_SECRET,
      toleranceSeconds: config.WEBHOOK_TOLERANCE_SECONDS,
      publicApiUrl: config.API_PUBLIC_URL,
      now,
    });
    provider = devCheckout;
  }

  const checkouts = new CheckoutService({
    provider,
    checkouts: models.checkouts,
    ledger,
    webUrl: config.WEB_URL,
    logger,
    now,
    providerAnswerTtlMs: config.CHECK_SUCCESS_CACHE_MS,
    onPaid: paymentCompletedPublisher(bus, now),
  });

  const app = createBillingApp({
    serviceIdentity: createServiceIdentity(config.SERVICE_AUTH_SECRET, 'billing'),
    credits,
    checkouts,
    devCheckout,
    verifyWebhook: (rawBody, signature) => provider.verifyWebhook(rawBody, signature, now()),
    fetchImpl,
    logger,
    readiness: {
      mongo: async () => {
        if (!deps.mongo.db) throw new Error('mongo connection is not open');
        await deps.mongo.db.command({ ping: 1 });
      },
      bus: () => bus.ping(),
    },
  });

  const recovery = periodicTask({
    name: 'ledger recovery',
    intervalMs: config.LEDGER_STALE_OPERATION_MS,
    logger,
    run: async () => {
      const result = await ledger.recover();
      if (result.finished + result.republished > 0) logger.info(result, 'ledger recovery finished leftover work');
    },
  });

  let subscriptions: Subscription[] = [];
  return {
    app,
    provider: kind,
    billingOf: (userId) => credits.billing(userId),
    recover: () => ledger.recover(),
    async start() {
      if (subscriptions.length > 0) return;
      subscriptions = await subscribeConsumers(bus, credits, logger);
      await recovery.runNow();
      recovery.start();
      logger.info({ provider: kind }, 'billing service started');
    },
    async stop() {
      await recovery.stop();
      const closing = subscriptions;
      subscriptions = [];
      await Promise.all(closing.map((subscription) => subscription.close()));
    },
  };
}
