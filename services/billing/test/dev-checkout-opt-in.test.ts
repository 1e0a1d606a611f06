import { TEST_SERVICE_AUTH_SECRET } from '@productgen/test-kit';
import { loadConfig } from '@productgen/service-kit';
import { billingConfigSchema } from '../src';
import { MongoFixture, call, newUserId, startTestService } from './helpers';

jest.setTimeout(60_000);

const mongo = new MongoFixture();

beforeAll(async () => {
  await mongo.start();
});

afterAll(async () => {
  await mongo.stop();
});

/** Stripe's variables, pointed at a closed loopback port: the service starts, nothing leaves the machine. */
const STRIPE = {
  STRIPE_SECRET_KEY: 'sk_test_local',
  STRIPE_WEBHOOK_SECRET: 'whsec_local',
  STRIPE_API_HOST: '127.0.0.1',
  STRIPE_API_PORT: '9',
  STRIPE_API_PROTOCOL: 'http',
};

describe('the dev checkout is opt-in (DEV_IDENTITY_PROVIDER) and refused outside development', () => {
  it('NODE_ENV=staging without the flag: no /dev-checkout', async () => {
    const billing = await startTestService(mongo, {
      env: { NODE_ENV: 'staging', DEV_IDENTITY_PROVIDER: '', ...STRIPE },
    });
    try {
      expect((await fetch(`${billing.url}/dev-checkout/cs_test_anything`)).status).toBe(404);
      const pay = await fetch(`${billing.url}/dev-checkout/cs_test_anything/pay`, { method: 'POST' });
      expect(pay.status).toBe(404);
      // The rest of billing works as usual.
      expect((await call(billing, 'GET', '/credits/log', { userId: newUserId() })).status).toBe(200);
    } finally {
      await billing.close();
    }
  });

  it('without the flag and without Stripe, billing does not start: it would have no way to take payments', () => {
    expect(() =>
      loadConfig(billingConfigSchema, { SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET, NODE_ENV: 'development' }),
    ).toThrow(
      /STRIPE_SECRET_KEY: Stripe must be configured, or DEV_IDENTITY_PROVIDER=true for the built-in dev checkout/,
    );
    expect(() =>
      loadConfig(billingConfigSchema, { SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET, NODE_ENV: 'staging' }),
    ).toThrow(
      /STRIPE_SECRET_KEY: Stripe must be configured with NODE_ENV=staging \(the dev checkout runs only in development or test\)/,
    );
  });

  it.each(['production', 'staging'])(
    'NODE_ENV=%s with the flag does not start, naming the variable, even with Stripe configured',
    (mode) => {
      const { STRIPE_API_HOST: _host, STRIPE_API_PORT: _port, STRIPE_API_PROTOCOL: _protocol, ...stripe } = STRIPE;
      expect(() =>
        loadConfig(billingConfigSchema, {
          SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET,
          NODE_ENV: mode,
          DEV_IDENTITY_PROVIDER: 'true',
          ...stripe,
        }),
      ).toThrow(
        `DEV_IDENTITY_PROVIDER: must not be enabled with NODE_ENV=${mode}, only with NODE_ENV=development or test`,
      );
      expect(
        loadConfig(billingConfigSchema, { SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET, NODE_ENV: mode, ...stripe })
          .DEV_IDENTITY_PROVIDER,
      ).toBe(false);
    },
  );
});
