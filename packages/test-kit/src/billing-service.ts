import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import mongoose from 'mongoose';
import type { BusMessage, MessageBus } from '@productgen/bus';
import {
  DEV_CHECKOUT_WEBHOOK_SECRET,
  billingConfigSchema,
  createBillingService,
  signLikeStripe,
  type BillingService,
  type BillingServiceDeps,
} from '@productgen/billing-service';
import { topics } from '@productgen/contracts';
import { createLogger, loadConfig } from '@productgen/service-kit';
import type { MongoFixture } from './mongo-fixture';
import { behindGateway, TEST_SERVICE_AUTH_SECRET } from './service-auth';
import { serviceSetup, type RunningTestService, type ServiceOptions } from './service-setup';
import { collectMessages, waitFor } from './waiting';

/** The real billing service for tests: its own tests and its contract suite. */

const silentLogger = createLogger({ service: 'billing-test', level: 'silent' });

/** Any request that tries to leave the machine fails the test run loudly. */
export const loopbackOnlyFetch: typeof fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
    throw new Error(`test tried to reach ${url.host}: nothing may leave the machine`);
  }
  return fetch(input, init);
};

export interface TestService extends RunningTestService {
  service: BillingService;
  /** Base URL of the service listening on a loopback port. */
  url: string;
  /** Every credits.balance_changed the service published from the first call on (one subscription, made then). */
  balanceChanges(): Promise<BusMessage[]>;
}

export interface TestServiceOptions
  extends ServiceOptions, Partial<Omit<BillingServiceDeps, 'config' | 'logger' | 'mongo'>> {}

/** The service as the embedded launcher builds it, listening on a loopback port: real database, in-process bus. */
export async function startTestService(mongo: MongoFixture, options: TestServiceOptions = {}): Promise<TestService> {
  const config = loadConfig(billingConfigSchema, {
    SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET,
    NODE_ENV: 'test',
    WEB_URL: 'http://localhost:3000',
    API_PUBLIC_URL: 'http://localhost:8080',
    // As the embedded launcher runs it: the dev checkout on (a test with Stripe's variables gets Stripe).
    DEV_IDENTITY_PROVIDER: 'true',
    ...options.env,
  });
  const setup = await serviceSetup(mongo, options, silentLogger);
  const { env: _env, connection: _connection, bus: _bus, ...deps } = options;
  const service = await createBillingService({
    config,
    logger: silentLogger,
    mongo: setup.connection,
    bus: setup.bus,
    now: setup.clock.now,
    fetchImpl: loopbackOnlyFetch,
    ...deps,
  });
  await service.start();
  const server = http.createServer(behindGateway(service.app));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let balanceChanges: Promise<BusMessage[]> | undefined;
  return {
    service,
    connection: setup.connection,
    bus: setup.bus,
    broker: setup.broker,
    clock: setup.clock,
    url: `http://127.0.0.1:${port}`,
    balanceChanges: () =>
      (balanceChanges ??= collectMessages(setup.bus, `billing-test.balance-changes.${randomUUID()}`, [
        topics.creditsBalanceChanged,
      ])),
    async close() {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await service.stop();
      await setup.closeBus();
    },
  };
}

/** A fresh user id (what auth's ObjectIds look like). */
export function newUserId(): string {
  return new mongoose.Types.ObjectId().toHexString();
}

export async function grantSignupBonus(bus: MessageBus, userId: string): Promise<void> {
  await bus.publish(
    topics.userSignedUp,
    { userId, email: `${userId}@example.com`, name: 'Test User', ref_code: null, at: new Date().toISOString() },
    { messageId: `${topics.userSignedUp}:${userId}` },
  );
}

/**
 * A paid checkout of `packageId` for the user, delivered as the payment provider delivers it: a signed
 * checkout.session.completed on the webhook. The same `sessionId` again is the provider retrying its webhook.
 */
export async function topUp(
  service: TestService,
  userId: string,
  packageId: 1 | 2 | 3 = 1,
  sessionId = `cs_test_${randomBytes(8).toString('hex')}`,
  webhookSecret = DEV_CHECKOUT_WEBHOOK_SECRET,
): Promise<void> {
  const payload = JSON.stringify({
    id: `evt_${randomBytes(6).toString('hex')}`,
    type: 'checkout.session.completed',
    data: { object: { id: sessionId, payment_status: 'paid', metadata: { userId, packageId: String(packageId) } } },
  });
  const response = await fetch(`${service.url}/payments/webhook`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': signLikeStripe(payload, webhookSecret, service.clock.now()),
    },
    body: payload,
  });
  if (response.status !== 200) throw new Error(`the top-up webhook answered ${response.status}`);
}

/**
 * Waits until billing published credits.balance_changed with this balance for the user, as auth waits for it. The
 * ledger publishes it once the operation has completed, entries included; the account's balance alone moves a
 * moment before the entries appear (the ledger's stated invariant, data/ledger.ts), so it is not what to wait for.
 */
export async function waitForBalanceMessage(
  service: TestService,
  userId: string,
  balance: number,
  what: string,
): Promise<void> {
  const messages = await service.balanceChanges();
  await waitFor(
    () =>
      messages.some((message) => {
        const payload = message.payload as { userId: string; balance: number };
        return payload.userId === userId && payload.balance === balance;
      }),
    what,
  );
}

/** A new user whose 10 signup credits have been granted completely (balance and entry). */
export async function signedUpUser(service: TestService, userId: string = newUserId()): Promise<string> {
  await service.balanceChanges();
  await grantSignupBonus(service.bus, userId);
  await waitForBalanceMessage(service, userId, 10, 'the signup bonus');
  return userId;
}
