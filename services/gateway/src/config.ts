import { limits } from '@productgen/contracts';
import {
  amqpConfig,
  mongoConfig,
  baseConfig,
  serviceAuthConfig,
  devFeaturesEnabled,
  devIdentityProviderConfig,
  envFields,
  loadConfig,
  refuseDevIdentityProviderOutsideDevelopment,
  telemetryConfig,
} from '@productgen/service-kit';
import { z } from 'zod';

const MIB = 1024 * 1024;

/** Comma-separated list of web origins (`https://app.example.com`), normalised to `URL.origin` form. */
function originList(defaultValue: string) {
  return z
    .string()
    .default(defaultValue)
    .transform((text, context) => {
      const origins: string[] = [];
      for (const entry of text.split(',').map((part) => part.trim())) {
        if (entry === '') continue;
        let url: URL | undefined;
        try {
          url = new URL(entry);
        } catch {
          url = undefined;
        }
        const isBareOrigin =
          url !== undefined &&
          (url.protocol === 'http:' || url.protocol === 'https:') &&
          url.origin === entry.replace(/\/$/, '');
        if (!url || !isBareOrigin) {
          context.addIssue({
            code: 'custom',
            message: `"${entry}" is not an origin; expected comma-separated origins such as https://app.example.com`,
          });
          return z.NEVER;
        }
        if (!origins.includes(url.origin)) origins.push(url.origin);
      }
      return origins;
    });
}

const nonNegativeInt = (defaultValue: number) =>
  z.coerce
    .number({ error: 'expected a number' })
    .int('expected a whole number')
    .min(0, 'expected 0 or more')
    .default(defaultValue);

/**
 * Express's `trust proxy`: true/false, a hop count, or comma-separated addresses/subnets/names
 * ("loopback, 10.0.0.0/8"). Wrong here means wrong client IPs, so wrong per-IP rate limits.
 */
const trustProxyField = z
  .string()
  .default('false')
  .transform((text): boolean | number | string => {
    const value = text.trim();
    if (value === 'true') return true;
    if (value === 'false') return false;
    if (/^\d+$/.test(value)) return Number(value);
    return value;
  });

export const gatewayConfigSchema = z
  .object({
    ...baseConfig,
    ...serviceAuthConfig,
    ...telemetryConfig,
    /** The one API origin's port (DESIGN §8). */
    API_PORT: envFields.port(8080),
    /** Platform-provided port; wins over API_PORT when set. */
    PORT: envFields.port().optional(),
    HOST: z.string().default('0.0.0.0'),
    /** CORS allowlist: the web app's origins (exact match). */
    WEB_ORIGINS: originList('http://localhost:3000,http://127.0.0.1:3000'),
    /** Where microfrontends and their assets are served from; listed in the Content-Security-Policy. */
    REMOTE_ORIGINS: originList(''),
    AUTH_URL: envFields.httpUrl().default('http://127.0.0.1:8081'),
    BILLING_URL: envFields.httpUrl().default('http://127.0.0.1:8082'),
    GENERATION_URL: envFields.httpUrl().default('http://127.0.0.1:8083'),
    BULK_URL: envFields.httpUrl().default('http://127.0.0.1:8084'),
    JSON_BODY_LIMIT_BYTES: envFields.positiveInt(MIB),
    /** Routes carrying a base64 photo: the contracts' longest image plus room for the JSON around it. */
    IMAGE_BODY_LIMIT_BYTES: envFields.positiveInt(limits.maxBase64ImageChars + 64 * 1024),
    /** Declared size cap of streamed uploads (the bulk zip); the owner enforces its own cap while reading. */
    UPLOAD_BODY_LIMIT_BYTES: envFields.positiveInt(limits.maxZipBytes + MIB),
    RATE_LIMIT_WINDOW_MS: envFields.positiveInt(60_000),
    RATE_LIMIT_PER_IP: envFields.positiveInt(1200),
    RATE_LIMIT_PER_SESSION: envFields.positiveInt(300),
    RATE_LIMIT_SIGN_IN_PER_IP: envFields.positiveInt(20),
    /** How long a verified session key is trusted without asking auth again; 0 disables the cache. */
    SESSION_CACHE_TTL_MS: nonNegativeInt(5000),
    SESSION_CACHE_MAX_ENTRIES: envFields.positiveInt(10_000),
    /** Lifetime of the HttpOnly session cookie set at sign-in (auth ends the session itself after its own limits). */
    SESSION_COOKIE_DAYS: envFields.positiveInt(30),
    SESSION_VERIFY_TIMEOUT_MS: envFields.positiveInt(3000),
    /** Longest silence from an owning service (connect, or between bytes) before the request fails with 504. */
    UPSTREAM_TIMEOUT_MS: envFields.positiveInt(30_000),
    /** Longest wait for the owner's answer while a streamed upload (bulk zip, webhook) is still being sent. */
    UPSTREAM_UPLOAD_TIMEOUT_MS: envFields.positiveInt(600_000),
    TRUST_PROXY: trustProxyField,
    /**
     * RabbitMQ, where auth announces revoked sessions: with it every replica forgets a logged-out session at once;
     * without it (one replica, or none reachable) only the replica that forwarded the logout does.
     */
    AMQP_URL: amqpConfig.AMQP_URL.optional(),
    /**
     * MongoDB, where every replica counts the rate limits in the same windows; without it each replica counts alone.
     */
    MONGO_URL: mongoConfig.MONGO_URL.optional(),
    MONGO_DB_NAME: envFields.nonEmpty().default('gateway'),
    /** How many analytics events are kept in memory for GET /internal/pst/stats. */
    PST_RECENT_EVENTS: envFields.positiveInt(200),
    PRODUCT_NAME: z.string().default('ProductGen'),
    GOOGLE_CLIENT_ID: z.string().default(''),
    STRIPE_PUBLISHABLE_KEY: z.string().optional(),
    /** Routes the dev-only routes (dev identity provider, dev checkout) to their services; development or test only. */
    ...devIdentityProviderConfig,
  })
  .superRefine(refuseDevIdentityProviderOutsideDevelopment);

export type GatewayConfig = z.output<typeof gatewayConfigSchema>;

/** Reads and validates the gateway's environment; throws a ConfigError naming every bad variable. */
export function loadGatewayConfig(env: Record<string, string | undefined> = process.env): GatewayConfig {
  return loadConfig(gatewayConfigSchema, env);
}

/** Whether the dev-only routes are served: with DEV_IDENTITY_PROVIDER, in development or test only. */
export function servesDevRoutes(config: Pick<GatewayConfig, 'NODE_ENV' | 'DEV_IDENTITY_PROVIDER'>): boolean {
  return devFeaturesEnabled(config);
}

/** The port main.ts listens on. */
export function listenPort(config: GatewayConfig): number {
  return config.PORT ?? config.API_PORT;
}
