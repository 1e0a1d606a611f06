import { connectMongo, MongoHitCounter, type MongoHandle } from '@productgen/service-kit';
import request from 'supertest';
import { createGateway, loadGatewayConfig, type Gateway } from '../src';
import { silentLogger, startUpstreams, type Upstreams } from './helpers';
import { TEST_SERVICE_AUTH_SECRET } from '@productgen/test-kit';
import { MongoFixture } from '@productgen/test-kit/mongo-fixture';

jest.setTimeout(60_000);

/** Two gateway replicas counting their rate limits in one MongoDB (the embedded server), as a deployment runs them. */
describe('rate limits shared by every gateway replica', () => {
  const mongo = new MongoFixture('gateway-shared-limits');
  let handles: MongoHandle[] = [];
  let upstreams: Upstreams;
  let replicas: Gateway[] = [];

  beforeAll(async () => {
    await mongo.start();
    upstreams = await startUpstreams();
    const config = loadGatewayConfig({
      SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET,
      NODE_ENV: 'test',
      ...upstreams.env,
      RATE_LIMIT_PER_SESSION: '3',
      RATE_LIMIT_SIGN_IN_PER_IP: '2',
    });
    for (let replica = 0; replica < 2; replica += 1) {
      // A connection of each replica's own, as separate processes have.
      const handle = await connectMongo({ url: mongo.url, dbName: 'gateway', logger: silentLogger });
      handles.push(handle);
      const rateLimitCounter = await MongoHitCounter.open(handle.connection, config.RATE_LIMIT_WINDOW_MS);
      replicas.push(createGateway({ config, logger: silentLogger, rateLimitCounter }));
    }
  });

  afterAll(async () => {
    for (const gateway of replicas) await gateway.stop();
    for (const handle of handles) await handle.close();
    await upstreams?.close();
    await mongo.stop();
    replicas = [];
    handles = [];
  });

  it('a session gets its limit once across the replicas, not once per replica', async () => {
    const statuses: number[] = [];
    for (let call = 0; call < 4; call += 1) {
      const replica = replicas[call % 2]!;
      statuses.push((await request(replica.app).get('/auth/me').set('X-Session-Key', 'key-alice')).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    // Another session counts on its own.
    expect((await request(replicas[1]!.app).get('/auth/me').set('X-Session-Key', 'key-bob')).status).toBe(200);
  });

  it('hits taken in blocks: many concurrent requests on two replicas get no more than the limit', async () => {
    // A larger limit, so each replica takes blocks of hits rather than one round trip per request.
    const limit = 200;
    const blockConfig = loadGatewayConfig({
      SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET,
      NODE_ENV: 'test',
      ...upstreams.env,
      RATE_LIMIT_PER_SESSION: String(limit),
    });
    const pair: Gateway[] = [];
    for (const handle of handles) {
      const rateLimitCounter = await MongoHitCounter.open(handle.connection, blockConfig.RATE_LIMIT_WINDOW_MS);
      pair.push(createGateway({ config: blockConfig, logger: silentLogger, rateLimitCounter }));
    }
    try {
      const statuses: number[] = [];
      // Waves of 30 concurrent requests, alternating replicas, until well past the limit.
      for (let wave = 0; wave < 10; wave += 1) {
        const answers = await Promise.all(
          Array.from({ length: 30 }, (_, index) =>
            request(pair[index % 2]!.app)
              .get('/auth/me')
              .set('X-Session-Key', 'key-carol'),
          ),
        );
        statuses.push(...answers.map((answer) => answer.status));
      }
      const allowed = statuses.filter((status) => status === 200).length;
      expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
      // Never more than the limit; fewer only by the hits the replicas held unused (blocks near the limit are 1 hit).
      expect(allowed).toBeLessThanOrEqual(limit);
      expect(allowed).toBeGreaterThanOrEqual(limit - 2 * Math.ceil(limit / 32));
    } finally {
      for (const gateway of pair) await gateway.stop();
    }
  });

  it('the sign-in limit per address holds across the replicas', async () => {
    const signIn = (replica: Gateway) =>
      request(replica.app).post('/auth/google').send({ credential: 'id-token', access_token: null, ref_code: null });
    expect((await signIn(replicas[0]!)).status).toBe(200);
    expect((await signIn(replicas[1]!)).status).toBe(200);
    const limited = await signIn(replicas[0]!);
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatch(/^Too many sign-in attempts\./);
  });
});
