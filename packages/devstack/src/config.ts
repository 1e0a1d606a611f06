import { z } from 'zod';
import { baseConfig, envFields, isDevelopmentMode, portConfig, telemetryConfig } from '@productgen/service-kit';
import { trackingScriptsConfig } from '@productgen/web-host';

/**
 * Environment of `npm start` (embedded mode). Each composed service also reads its own variables (see README);
 * the launcher only overrides what it decides itself: database URLs, internal ports, the service base URLs.
 */
export const devstackConfigSchema = z.object({
  ...baseConfig,
  ...portConfig,
  ...telemetryConfig,
  /** Where the embedded MongoDB journal, the S3 objects and the published microfrontends live. */
  DATA_DIR: envFields.nonEmpty().default('.data'),
  /** Interface the web and API servers listen on; loopback keeps the dev identity provider off the network. */
  HOST: envFields.nonEmpty().default('127.0.0.1'),
  /**
   * Host name in the printed URLs and in the payment return address. The web app itself calls the API at whatever
   * host the page was opened at (the runtime config names only the API port).
   */
  PUBLIC_HOST: envFields.nonEmpty().default('localhost'),
  PRODUCT_NAME: envFields.nonEmpty().default('ProductGen'),
  /** Empty in embedded mode: the built-in dev identity provider signs people in. */
  GOOGLE_CLIENT_ID: z.string().default(''),
  /** ANALYTICS_SCRIPT_URL, ADVERTISING_PIXEL_SCRIPT_URL, ...: the layout's third-party scripts, each only if set. */
  ...trackingScriptsConfig,
});

export type DevstackConfig = z.output<typeof devstackConfigSchema>;

/**
 * The launcher turns on the dev identity provider and the dev checkout (DEV_IDENTITY_PROVIDER for the composed
 * services, devIdentityProvider in the runtime config) in development and test, the only modes the services
 * accept them in.
 */
export function launcherDevIdentityProvider(config: Pick<DevstackConfig, 'NODE_ENV'>): boolean {
  return isDevelopmentMode(config.NODE_ENV);
}
