import { z } from 'zod';
import { baseConfig, envFields, telemetryConfig } from '@productgen/service-kit';

/** The tool pages run onnxruntime-web with threads, which needs a cross-origin isolated document. */
export const TOOL_PATHS = [
  '/image-resizer',
  '/remove-background-shopify',
  '/image-upscaler',
  '/remove-object-from-photo',
];

const pathList = z
  .string()
  .transform((text) =>
    text
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().startsWith('/', 'expected paths starting with /')));

const scriptUrl = z
  .string()
  .regex(/^(https?:\/\/|\/[^/])/, 'expected an http(s) URL or a /path')
  .optional();

/**
 * The analytics and pixel scripts of the layout (SPEC §2), one URL each; unset means not loaded. Both web origins
 * (this shell host and embedded mode's launcher) put them in /runtime-config.json as `trackingScripts`.
 */
export const trackingScriptsConfig = {
  ANALYTICS_SCRIPT_URL: scriptUrl,
  ADVERTISING_PIXEL_SCRIPT_URL: scriptUrl,
  SOCIAL_PIXEL_SCRIPT_URL: scriptUrl,
  PRODUCT_ANALYTICS_SCRIPT_URL: scriptUrl,
};

type TrackingScriptsEnv = { [Key in keyof typeof trackingScriptsConfig]?: string };

/** runtime-config.json's `trackingScripts`: only the configured kinds. */
export function trackingScriptsOf(config: TrackingScriptsEnv): Record<string, string> {
  const scripts: Record<string, string | undefined> = {
    analytics: config.ANALYTICS_SCRIPT_URL,
    advertisingPixel: config.ADVERTISING_PIXEL_SCRIPT_URL,
    socialPixel: config.SOCIAL_PIXEL_SCRIPT_URL,
    productAnalytics: config.PRODUCT_ANALYTICS_SCRIPT_URL,
  };
  return Object.fromEntries(Object.entries(scripts).filter((entry): entry is [string, string] => Boolean(entry[1])));
}

const common = {
  ...baseConfig,
  ...telemetryConfig,
  PORT: envFields.port(8080),
  HOST: envFields.nonEmpty().default('0.0.0.0'),
  /** The built files this host serves (the shell's or one microfrontend's dist). */
  STATIC_DIR: envFields.nonEmpty(),
};

/** A microfrontend host serves exactly one version of one microfrontend, at /mfe/<MFE_NAME>/<MFE_VERSION>/. */
export const microfrontendHostConfigSchema = z.object({
  ...common,
  WEB_HOST_ROLE: z.literal('microfrontend'),
  MFE_NAME: z.string().regex(/^[a-z][a-z0-9-]*$/, 'expected a microfrontend short name such as create'),
  MFE_VERSION: z.string().regex(/^[0-9A-Za-z.+-]+$/, 'expected a version such as 1.4.0'),
});

/**
 * The shell host: the shell, /runtime-config.json, the registry /remotes.json (a file, re-read on every request,
 * so changing one entry releases or rolls back a microfrontend) and /mfe/<name>/<version>/ forwarded to the host of
 * that version, so the browser sees one origin: MFE_UPSTREAMS names a host per microfrontend (compose: one version
 * each); MFE_UPSTREAM is a template for the others (`{name}`, `{version}` with dashes: Kubernetes, a Service per
 * version).
 */
export const shellHostConfigSchema = z.object({
  ...common,
  WEB_HOST_ROLE: z.literal('shell'),
  REGISTRY_FILE: envFields.nonEmpty(),
  MFE_UPSTREAM: z
    .string()
    .regex(/^https?:\/\/.*\{name\}/, 'expected a URL template with {name}, such as http://mfe-{name}:8080')
    .optional(),
  /** Per-name hosts instead of a template (`create=http://mfe-create:8080,tools=http://mfe-tools:8080`). */
  MFE_UPSTREAMS: z
    .string()
    .transform((text, context) => {
      const hosts: Record<string, string> = {};
      for (const entry of text
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean)) {
        const [name, url] = entry.split('=');
        if (!name || !url || !/^https?:\/\/[^/]+\/?$/.test(url)) {
          context.addIssue({ code: 'custom', message: `"${entry}" is not name=http://host:port` });
          return z.NEVER;
        }
        hosts[name] = url;
      }
      return hosts;
    })
    .optional(),
  UPSTREAM_TIMEOUT_MS: envFields.positiveInt(10_000),
  API_PUBLIC_URL: envFields.httpUrl(),
  GOOGLE_CLIENT_ID: z.string().default(''),
  PRODUCT_NAME: envFields.nonEmpty().default('ProductGen'),
  /** Shows the built-in dev identity provider's sign-in; only in development or test (the services refuse it elsewhere). */
  DEV_IDENTITY_PROVIDER: envFields.boolean(false),
  CROSS_ORIGIN_ISOLATED_PATHS: pathList.default(TOOL_PATHS),
  ...trackingScriptsConfig,
});

export type ShellHostConfig = z.output<typeof shellHostConfigSchema>;
export type MicrofrontendHostConfig = z.output<typeof microfrontendHostConfigSchema>;
