import { z } from 'zod';
import {
  amqpConfig,
  baseConfig,
  serviceAuthConfig,
  devFeaturesEnabled,
  devIdentityProviderConfig,
  envFields,
  isDevelopmentMode,
  mongoConfig,
  refuseDevIdentityProviderOutsideDevelopment,
  telemetryConfig,
} from '@productgen/service-kit';

/** Dev checkout webhook secret used when none is configured; refused in production (the dev checkout is off there). */
export const DEV_CHECKOUT_WEBHOOK_SECRET = 'whsec_productgen_dev_checkout';

/**
 * Environment of the billing service. MONGO_URL and AMQP_URL are optional here because the embedded launcher hands
 * the service a connection and a bus of its own; `distributedBillingConfigSchema` (main.ts) requires them.
 * With STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET set, checkout goes to Stripe; with neither, to the built-in
 * dev checkout, which needs DEV_IDENTITY_PROVIDER=true (the embedded launcher sets it) and is refused in
 * production: a billing without either does not start, so a deploy never runs without a way to pay.
 */
export const billingConfigSchema = z
  .object({
    ...baseConfig,
    ...serviceAuthConfig,
    PORT: envFields.port(8082),
    MONGO_URL: mongoConfig.MONGO_URL.optional(),
    MONGO_DB_NAME: envFields.nonEmpty().default('billing'),
    AMQP_URL: amqpConfig.AMQP_URL.optional(),
    ...telemetryConfig,
    /** Origin of the web app: checkout success and cancel URLs are absolute on it. */
    WEB_URL: envFields.httpUrl().default('http://localhost:3000'),
    /** Public origin of the API gateway: the dev checkout page is reached there. */
    API_PUBLIC_URL: envFields.httpUrl().default('http://localhost:8080'),
    STRIPE_SECRET_KEY: envFields.nonEmpty().optional(),
    STRIPE_WEBHOOK_SECRET: envFields.nonEmpty().optional(),
    /** Tests only: point the Stripe SDK at a local server (host, port, protocol). */
    STRIPE_API_HOST: envFields.nonEmpty().optional(),
    STRIPE_API_PORT: envFields.port().optional(),
    STRIPE_API_PROTOCOL: z.enum(['http', 'https'], { error: 'expected http or https' }).optional(),
    STRIPE_TIMEOUT_MS: envFields.positiveInt(10_000),
    /** How long check-success reuses the provider's answer that a session is not paid yet, per session. */
    CHECK_SUCCESS_CACHE_MS: envFields.positiveInt(5_000),
    /** Replay window of webhook signatures, seconds. */
    WEBHOOK_TOLERANCE_SECONDS: envFields.positiveInt(300),
    ...devIdentityProviderConfig,
    /** Secret the dev checkout signs its webhooks with (only when Stripe is not configured). */
    DEV_CHECKOUT_WEBHOOK_SECRET: envFields.nonEmpty().default(DEV_CHECKOUT_WEBHOOK_SECRET),
    /** Abuse limit of POST /support/refund: refunds granted per user in a sliding window. */
    REFUND_LIMIT_PER_WINDOW: envFields.positiveInt(5),
    REFUND_LIMIT_WINDOW_HOURS: envFields.positiveInt(24),
    /** A ledger operation left pending this long (its process died) may be finished by a retry or the sweeper. */
    LEDGER_STALE_OPERATION_MS: envFields.positiveInt(60_000),
  })
  .superRefine((config, ctx) => {
    const stripeParts = [config.STRIPE_SECRET_KEY, config.STRIPE_WEBHOOK_SECRET].filter(Boolean).length;
    if (stripeParts === 1) {
      ctx.addIssue({
        code: 'custom',
        path: [config.STRIPE_SECRET_KEY ? 'STRIPE_WEBHOOK_SECRET' : 'STRIPE_SECRET_KEY'],
        message: 'STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together',
      });
    }
    refuseDevIdentityProviderOutsideDevelopment(config, ctx);
    if (stripeParts === 0 && !devFeaturesEnabled(config)) {
      ctx.addIssue({
        code: 'custom',
        path: ['STRIPE_SECRET_KEY'],
        message: isDevelopmentMode(config.NODE_ENV)
          ? 'Stripe must be configured, or DEV_IDENTITY_PROVIDER=true for the built-in dev checkout'
          : `Stripe must be configured with NODE_ENV=${config.NODE_ENV} (the dev checkout runs only in development or test)`,
      });
    }
    if (config.NODE_ENV !== 'production') return;
    if (config.STRIPE_API_HOST) {
      ctx.addIssue({ code: 'custom', path: ['STRIPE_API_HOST'], message: 'must not be set in production' });
    }
  });

export type BillingConfig = z.output<typeof billingConfigSchema>;

/** main.ts: a process on its own needs a real database and broker. */
export const distributedBillingConfigSchema = billingConfigSchema.safeExtend({
  MONGO_URL: mongoConfig.MONGO_URL,
  AMQP_URL: amqpConfig.AMQP_URL,
});

/**
 * Stripe when both secrets are set; otherwise the dev checkout, which the schema allows only with
 * DEV_IDENTITY_PROVIDER=true and never in production.
 */
export function paymentProviderKind(config: BillingConfig): 'stripe' | 'dev' {
  return config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET ? 'stripe' : 'dev';
}
