import { z } from 'zod';

/** One offending environment variable and why it was refused (the value itself is never echoed: it may be a secret). */
export interface ConfigProblem {
  variable: string;
  reason: string;
}

export class ConfigError extends Error {
  readonly problems: readonly ConfigProblem[];

  constructor(problems: readonly ConfigProblem[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p.variable}: ${p.reason}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

type EnvSource = Record<string, string | undefined>;

/**
 * Validates the environment against a zod object schema and returns the typed config.
 * Empty strings count as unset (a `FOO=` line in an env file means "not configured"), so defaults apply.
 * Throws one ConfigError listing every offending variable.
 */
export function loadConfig<Shape extends z.ZodRawShape>(
  schema: z.ZodObject<Shape>,
  env: EnvSource = process.env,
): z.output<z.ZodObject<Shape>> {
  const input: EnvSource = {};
  for (const key of Object.keys(schema.shape)) {
    const value = env[key];
    if (value !== undefined && value.trim() !== '') input[key] = value;
  }
  const result = schema.safeParse(input);
  if (result.success) return result.data;

  const problems = new Map<string, string>();
  for (const issue of result.error.issues) {
    const variable = issue.path.length > 0 ? issue.path.map(String).join('.') : '(config)';
    const topLevel = issue.path[0];
    // A schema's own rule (a custom issue) says why better than "required", even when the variable is unset.
    const missing = typeof topLevel === 'string' && input[topLevel] === undefined && issue.code !== 'custom';
    if (!problems.has(variable)) problems.set(variable, missing ? 'required' : issue.message);
  }
  throw new ConfigError([...problems].map(([variable, reason]) => ({ variable, reason })));
}

/** For main.ts: print a ConfigError plainly and exit 1; any other error is rethrown untouched. */
export function exitOnConfigError(error: unknown, exit: (code: number) => never = process.exit): never {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    return exit(1);
  }
  throw error;
}

/** loadConfig for process entry points: a bad environment ends the process with a readable message. */
export function loadConfigOrExit<Shape extends z.ZodRawShape>(
  schema: z.ZodObject<Shape>,
  env: EnvSource = process.env,
): z.output<z.ZodObject<Shape>> {
  try {
    return loadConfig(schema, env);
  } catch (error) {
    return exitOnConfigError(error);
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function urlField(protocols: readonly string[]) {
  const pattern = new RegExp(`^(${protocols.map((p) => p.replace(/[+]/g, '\\+')).join('|')})$`);
  return z.url({ protocol: pattern, error: `expected a ${protocols.map((p) => `${p}://`).join(' or ')} URL` });
}

/** Builders for the variables most services share, with messages that say what is expected. */
export const envFields = {
  nodeEnv: () =>
    z
      .enum(['development', 'test', 'staging', 'production'], {
        error: 'expected development, test, staging or production',
      })
      .default('development'),
  logLevel: () => z.enum(LOG_LEVELS, { error: `expected one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  /** A TCP port; 0 means "any free port" (useful in tests). */
  port: (defaultPort?: number) => {
    const field = z.coerce
      .number({ error: 'expected a number' })
      .int('expected a whole number')
      .min(0, 'expected a port number between 0 and 65535')
      .max(65535, 'expected a port number between 0 and 65535');
    return defaultPort === undefined ? field : field.default(defaultPort);
  },
  positiveInt: (defaultValue?: number) => {
    const field = z.coerce
      .number({ error: 'expected a number' })
      .int('expected a whole number')
      .positive('expected a positive number');
    return defaultValue === undefined ? field : field.default(defaultValue);
  },
  boolean: (defaultValue: boolean) =>
    z
      .enum(['true', 'false', '1', '0'], { error: 'expected true, false, 1 or 0' })
      .transform((value) => value === 'true' || value === '1')
      .default(defaultValue),
  url: (protocols: readonly string[] = ['http', 'https']) => urlField(protocols),
  mongoUrl: () => urlField(['mongodb', 'mongodb+srv']),
  amqpUrl: () => urlField(['amqp', 'amqps']),
  httpUrl: () => urlField(['http', 'https']),
  nonEmpty: () => z.string({ error: 'expected a value' }).min(1, 'must not be empty'),
  bucketName: () =>
    z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
        'expected an S3 bucket name (3-63 lowercase letters, digits, dots, dashes)',
      ),
};

/** NODE_ENV and LOG_LEVEL: every service has them. */
export const baseConfig = { NODE_ENV: envFields.nodeEnv(), LOG_LEVEL: envFields.logLevel() };

/**
 * DEV_IDENTITY_PROVIDER: the built-in dev identity provider (auth) and dev checkout (billing), which let anyone
 * sign in as anybody and pay nothing. Off unless set (the embedded launcher sets it), and only ever served in an
 * explicit development mode (`isDevelopmentMode`): a process with it set in any other mode does not start
 * (`refuseDevIdentityProviderOutsideDevelopment`).
 */
export const devIdentityProviderConfig = { DEV_IDENTITY_PROVIDER: envFields.boolean(false) };

/** The NODE_ENV values in which the dev features may run: a developer's machine and the test suites. */
const DEVELOPMENT_MODES: ReadonlySet<string> = new Set(['development', 'test']);

/**
 * Whether NODE_ENV names a development mode. Staging and production are not: a staging deployment is reachable by
 * others, and a flag copied there by mistake must not open a sign-in as anybody or free credits.
 */
export function isDevelopmentMode(nodeEnv: string): boolean {
  return DEVELOPMENT_MODES.has(nodeEnv);
}

/** Whether the dev identity provider and dev checkout are served: opted in, and in a development mode. */
export function devFeaturesEnabled(config: { NODE_ENV: string; DEV_IDENTITY_PROVIDER: boolean }): boolean {
  return config.DEV_IDENTITY_PROVIDER && isDevelopmentMode(config.NODE_ENV);
}

export function refuseDevIdentityProviderOutsideDevelopment(
  config: { NODE_ENV: string; DEV_IDENTITY_PROVIDER: boolean },
  ctx: z.RefinementCtx,
): void {
  if (config.DEV_IDENTITY_PROVIDER && !isDevelopmentMode(config.NODE_ENV)) {
    ctx.addIssue({
      code: 'custom',
      path: ['DEV_IDENTITY_PROVIDER'],
      message:
        `must not be enabled with NODE_ENV=${config.NODE_ENV}, only with NODE_ENV=development or test ` +
        '(anyone could sign in as anybody and get credits without paying)',
    });
  }
}
export const mongoConfig = { MONGO_URL: envFields.mongoUrl() };
export const amqpConfig = { AMQP_URL: envFields.amqpUrl() };
export const s3Config = {
  S3_ENDPOINT: envFields.httpUrl(),
  S3_ACCESS_KEY: envFields.nonEmpty(),
  S3_SECRET_KEY: envFields.nonEmpty(),
  S3_BUCKET: envFields.bucketName(),
};
/** The OTLP endpoint switches tracing export on; absent means spans are not exported (context still propagates). */
export const telemetryConfig = {
  OTEL_EXPORTER_OTLP_ENDPOINT: envFields.httpUrl().optional(),
  OTEL_SERVICE_NAME: envFields.nonEmpty().optional(),
};
/** Ports fixed by DESIGN §8. */
export const portConfig = { API_PORT: envFields.port(8080), WEB_PORT: envFields.port(3000) };
