import { z } from 'zod';
import {
  ConfigError,
  baseConfig,
  devFeaturesEnabled,
  devIdentityProviderConfig,
  envFields,
  exitOnConfigError,
  loadConfig,
  mongoConfig,
  refuseDevIdentityProviderOutsideDevelopment,
  s3Config,
  telemetryConfig,
} from '@productgen/service-kit';

const schema = z.object({
  ...baseConfig,
  ...mongoConfig,
  ...s3Config,
  ...telemetryConfig,
  API_PORT: envFields.port(),
  FEATURE_X: envFields.boolean(false),
});

const validEnv = {
  MONGO_URL: 'mongodb://127.0.0.1:27017',
  S3_ENDPOINT: 'http://127.0.0.1:9000',
  S3_ACCESS_KEY: 'key',
  S3_SECRET_KEY: 'secret',
  S3_BUCKET: 'product-photos',
  API_PORT: '8080',
};

function configErrorOf(env: Record<string, string | undefined>): ConfigError {
  try {
    loadConfig(schema, env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('returns typed values with defaults applied', () => {
    const config = loadConfig(schema, { ...validEnv, FEATURE_X: '1', UNRELATED: 'ignored' });
    expect(config).toEqual({
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      MONGO_URL: 'mongodb://127.0.0.1:27017',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_ACCESS_KEY: 'key',
      S3_SECRET_KEY: 'secret',
      S3_BUCKET: 'product-photos',
      API_PORT: 8080,
      FEATURE_X: true,
    });
  });

  it('names every offending variable and why, in one error', () => {
    const error = configErrorOf({
      ...validEnv,
      MONGO_URL: undefined,
      API_PORT: 'eighty',
      LOG_LEVEL: 'loud',
      S3_ENDPOINT: 'ftp://example.com',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url',
    });
    expect(error.problems).toEqual(
      expect.arrayContaining([
        { variable: 'MONGO_URL', reason: 'required' },
        { variable: 'API_PORT', reason: 'expected a number' },
        { variable: 'LOG_LEVEL', reason: expect.stringContaining('expected one of fatal, error') },
        { variable: 'S3_ENDPOINT', reason: 'expected a http:// or https:// URL' },
        { variable: 'OTEL_EXPORTER_OTLP_ENDPOINT', reason: 'expected a http:// or https:// URL' },
      ]),
    );
    expect(error.problems).toHaveLength(5);
    expect(error.message).toContain('MONGO_URL: required');
    expect(error.message).toContain('API_PORT: expected a number');
  });

  it('treats empty values as unset and never echoes values (they may be secrets)', () => {
    const error = configErrorOf({ ...validEnv, S3_SECRET_KEY: '', API_PORT: '70000' });
    expect(error.problems).toEqual([
      { variable: 'S3_SECRET_KEY', reason: 'required' },
      { variable: 'API_PORT', reason: 'expected a port number between 0 and 65535' },
    ]);
    expect(error.message).not.toContain('70000');
  });

  it('exitOnConfigError prints the problems and exits 1; other errors pass through', () => {
    const written: string[] = [];
    const write = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    const exit = jest.fn((code: number): never => {
      throw new Error(`exit ${code}`);
    });
    try {
      expect(() => exitOnConfigError(configErrorOf({}), exit)).toThrow('exit 1');
      expect(exit).toHaveBeenCalledWith(1);
      expect(written.join('')).toContain('MONGO_URL: required');
      const other = new Error('boom');
      expect(() => exitOnConfigError(other, exit)).toThrow(other);
      expect(exit).toHaveBeenCalledTimes(1);
    } finally {
      write.mockRestore();
    }
  });
});

describe('the dev features (DEV_IDENTITY_PROVIDER) need an explicit development mode', () => {
  const devSchema = z
    .object({ ...baseConfig, ...devIdentityProviderConfig })
    .superRefine(refuseDevIdentityProviderOutsideDevelopment);

  it.each(['development', 'test'])('NODE_ENV=%s: served when opted in, off otherwise', (mode) => {
    expect(devFeaturesEnabled(loadConfig(devSchema, { NODE_ENV: mode, DEV_IDENTITY_PROVIDER: 'true' }))).toBe(true);
    expect(devFeaturesEnabled(loadConfig(devSchema, { NODE_ENV: mode }))).toBe(false);
  });

  it.each(['staging', 'production'])('NODE_ENV=%s: a process opting in does not start', (mode) => {
    expect(() => loadConfig(devSchema, { NODE_ENV: mode, DEV_IDENTITY_PROVIDER: 'true' })).toThrow(
      `DEV_IDENTITY_PROVIDER: must not be enabled with NODE_ENV=${mode}, only with NODE_ENV=development or test`,
    );
    // Whatever a config that skipped the refusal says, the features stay off.
    expect(devFeaturesEnabled({ NODE_ENV: mode, DEV_IDENTITY_PROVIDER: true })).toBe(false);
  });
});
