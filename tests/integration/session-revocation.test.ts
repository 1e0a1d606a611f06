import {
  createAmqpBus,
  createInProcessBroker,
  createInProcessBus,
  type InProcessBroker,
  type MessageBus,
} from '@productgen/bus';
import { createGateway, loadGatewayConfig, type Gateway } from '@productgen/gateway';
import { createLogger } from '@productgen/service-kit';
import { LoopbackServers, pollUntil, TEST_SERVICE_AUTH_SECRET } from '@productgen/test-kit';
import { signInDev, startTestService, type TestService } from '@productgen/test-kit/auth-service';
import { MongoFixture } from '@productgen/test-kit/mongo-fixture';
import { createThrowawayVhost, type ThrowawayVhost } from '../support/rabbitmq';

// Every gateway replica keeps verified sessions in a short cache, and a service behind it (billing here, a stand-in
// that answers every call) trusts the user the gateway names. A logout goes through one replica; auth announces it
// (session.revoked) and every replica, each on a queue of its own, forgets the session: the other replicas refuse
// the key at once instead of when their cache entry expires. The cache here outlives the test (10 minutes), so only
// the announcement can make a replica refuse. Run on the in-process bus (embedded mode) and, with AMQP_URL, on real
// RabbitMQ (three connections, as three processes would have).
jest.setTimeout(120_000);

const logger = createLogger({ service: 'session-revocation-test', level: 'silent' });

interface BusKind {
  name: string;
  /** Makes the buses of one run (one per process) and removes what they left behind afterwards. */
  setUp(): Promise<{ connect(): Promise<MessageBus>; tearDown(): Promise<void> }>;
}

const inProcess: BusKind = {
  name: 'in-process bus',
  async setUp() {
    const broker: InProcessBroker = createInProcessBroker();
    return {
      connect: async () => createInProcessBus(broker, { logger }),
      tearDown: async () => broker.close(),
    };
  },
};

const rabbitMq = (amqpUrl: string): BusKind => ({
  name: 'RabbitMQ',
  async setUp() {
    const vhost: ThrowawayVhost = await createThrowawayVhost(amqpUrl, 'productgen-revocation');
    return {
      connect: () => createAmqpBus({ url: vhost.url, logger }),
      tearDown: () => vhost.remove(),
    };
  },
});

const kinds = process.env.AMQP_URL ? [inProcess, rabbitMq(process.env.AMQP_URL)] : [inProcess];
if (!process.env.AMQP_URL) {
  test.skip('the RabbitMQ run needs RabbitMQ: set AMQP_URL (CI does) to run it', () => undefined);
}

describe.each(kinds)('a logout through one gateway replica ($name)', (kind) => {
  const mongo = new MongoFixture();
  const buses: MessageBus[] = [];
  const servers = new LoopbackServers();
  const gateways: Gateway[] = [];
  let tearDown: () => Promise<void>;
  let auth: TestService;
  /** The replicas' addresses. */
  let replicas: string[];

  beforeAll(async () => {
    await mongo.start();
    const run = await kind.setUp();
    tearDown = run.tearDown;
    const connect = async () => {
      const bus = await run.connect();
      buses.push(bus);
      return bus;
    };
    auth = await startTestService(mongo, { bus: await connect() });
    const config = loadGatewayConfig({
      SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET,
      NODE_ENV: 'test',
      DEV_IDENTITY_PROVIDER: 'true',
      AUTH_URL: await servers.listen(auth.service.app),
      BILLING_URL: await servers.listen((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
      }),
      // Never asked in this test.
      GENERATION_URL: 'http://127.0.0.1:9',
      BULK_URL: 'http://127.0.0.1:9',
      SESSION_CACHE_TTL_MS: String(10 * 60_000),
    });
    replicas = [];
    for (let index = 0; index < 2; index += 1) {
      const gateway = createGateway({ config, logger, bus: await connect() });
      gateways.push(gateway);
      await gateway.start();
      replicas.push(await servers.listen(gateway.app));
    }
  });

  afterAll(async () => {
    await servers.close();
    for (const gateway of gateways) await gateway.stop();
    await auth?.close();
    for (const bus of buses) await bus.close();
    await tearDown?.();
    await mongo.stop();
  });

  /** A call the gateway checks the session of and billing answers (auth is not asked again when it is cached). */
  const creditLog = (replica: string, key: string) =>
    fetch(`${replica}/credits/log`, { headers: { 'x-session-key': key } }).then((answer) => answer.status);

  it('is refused by every other replica at once, not when its cache entry expires', async () => {
    const [first, second] = replicas as [string, string];
    const { session_key: key } = await signInDev(auth, `revocation-${kind.name.length}-${Date.now()}@example.com`);
    // Both replicas have verified the key and keep it for ten minutes.
    expect(await creditLog(first, key)).toBe(200);
    expect(await creditLog(second, key)).toBe(200);
    const other = await signInDev(auth, `other-${kind.name.length}-${Date.now()}@example.com`);
    expect(await creditLog(second, other.session_key)).toBe(200);

    const logout = await fetch(`${first}/auth/logout`, { method: 'POST', headers: { 'x-session-key': key } });
    expect(logout.status).toBe(200);
    expect(await creditLog(first, key)).toBe(401);
    // The announcement travels through the bus: a moment, never the cache's ten minutes.
    const started = Date.now();
    await pollUntil(
      'the other replica to refuse the logged-out key',
      () => creditLog(second, key),
      (status) => status === 401,
      {
        timeoutMs: 5_000,
        intervalMs: 20,
      },
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    // Only that session: another user's stays signed in.
    expect(await creditLog(second, other.session_key)).toBe(200);
  });
});
