import { z } from 'zod';
import {
  amqpConfig,
  baseConfig,
  serviceAuthConfig,
  devFeaturesEnabled,
  devIdentityProviderConfig,
  envFields,
  mongoConfig,
  refuseDevIdentityProviderOutsideDevelopment,
  telemetryConfig,
} from '@productgen/service-kit';

/** Client id used when none is configured; fine with the dev identity provider, refused in production. */
export const DEV_GOOGLE_CLIENT_ID = 'productgen-dev-client';

export const DEFAULT_GOOGLE_JWKS_URL = 'https://www.googleapis.com/oauth2/v3/certs';
export const DEFAULT_GOOGLE_TOKENINFO_URL = 'https://oauth2.googleapis.com/tokeninfo';
export const DEFAULT_GOOGLE_USERINFO_URL = 'https://openidconnect.googleapis.com/v1/userinfo';

/**
 * Environment of the auth service. MONGO_URL and AMQP_URL are optional here because the embedded launcher hands
 * the service a connection and a bus of its own; `distributedAuthConfigSchema` (main.ts) requires them.
 */
export const authConfigSchema = z
  .object({
    ...baseConfig,
    ...serviceAuthConfig,
    PORT: envFields.port(8081),
    MONGO_URL: mongoConfig.MONGO_URL.optional(),
    MONGO_DB_NAME: envFields.nonEmpty().default('auth'),
    AMQP_URL: amqpConfig.AMQP_URL.optional(),
    ...telemetryConfig,
    GOOGLE_CLIENT_ID: envFields.nonEmpty().default(DEV_GOOGLE_CLIENT_ID),
    GOOGLE_JWKS_URL: envFields.httpUrl().default(DEFAULT_GOOGLE_JWKS_URL),
    GOOGLE_TOKENINFO_URL: envFields.httpUrl().default(DEFAULT_GOOGLE_TOKENINFO_URL),
    GOOGLE_USERINFO_URL: envFields.httpUrl().default(DEFAULT_GOOGLE_USERINFO_URL),
    /** Time limit for each call to Google (JWKS, tokeninfo, userinfo). */
    GOOGLE_TIMEOUT_MS: envFields.positiveInt(5000),
    SESSION_IDLE_DAYS: envFields.positiveInt(14),
    SESSION_ABSOLUTE_DAYS: envFields.positiveInt(30),
    ...devIdentityProviderConfig,
    DEV_IDP_ISSUER: envFields.nonEmpty().default('productgen-dev-idp'),
    SHOP_FETCH_TIMEOUT_MS: envFields.positiveInt(5000),
    SHOP_FETCH_MAX_BYTES: envFields.positiveInt(1024 * 1024),
    /**
     * Settings saves with a website address per user and window: each reads the shop's home page from the server,
     * so an unlimited save loop would have it fetch any site at the client's pace.
     */
    SITE_FETCH_LIMIT_PER_WINDOW: envFields.positiveInt(10),
    SITE_FETCH_LIMIT_WINDOW_MINUTES: envFields.positiveInt(60),
    /** Tests only: lets the website fetcher reach loopback addresses (a local test server). Refused in production. */
    SHOP_FETCH_ALLOW_LOOPBACK: envFields.boolean(false),
  })
  .superRefine((config, ctx) => {
    if (config.SESSION_ABSOLUTE_DAYS < config.SESSION_IDLE_DAYS) {
      ctx.addIssue({
        code: 'custom',
        path: ['SESSION_ABSOLUTE_DAYS'],
        message: 'must not be shorter than SESSION_IDLE_DAYS',
      });
    }
    refuseDevIdentityProviderOutsideDevelopment(config, ctx);
    if (config.NODE_ENV !== 'production') return;
    if (config.GOOGLE_CLIENT_ID === DEV_GOOGLE_CLIENT_ID) {
      ctx.addIssue({
        code: 'custom',
        path: ['GOOGLE_CLIENT_ID'],
        message: 'must be set to the Google OAuth client id in production',
      });
    }
    if (config.SHOP_FETCH_ALLOW_LOOPBACK) {
      ctx.addIssue({
        code: 'custom',
        path: ['SHOP_FETCH_ALLOW_LOOPBACK'],
        message: 'must not be enabled in production',
      });
    }
  });

export type AuthConfig = z.output<typeof authConfigSchema>;

/** main.ts: a process on its own needs a real database and broker. */
export const distributedAuthConfigSchema = authConfigSchema.safeExtend({
  MONGO_URL: mongoConfig.MONGO_URL,
  AMQP_URL: amqpConfig.AMQP_URL,
});

/** The dev identity provider runs only when DEV_IDENTITY_PROVIDER is set, in development or test. */
export function isDevIdpEnabled(config: Pick<AuthConfig, 'NODE_ENV' | 'DEV_IDENTITY_PROVIDER'>): boolean {
  return devFeaturesEnabled(config);
}
