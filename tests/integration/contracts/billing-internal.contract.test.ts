import { randomUUID } from 'node:crypto';
import { OUT_OF_CREDITS_MESSAGE, RESERVATION_CONFLICT_MESSAGE, billingInternalRoutes } from '@productgen/contracts';
import { createInternalApiClient, type InternalApiClient } from '@productgen/service-kit';
import { BillingFixture } from '@productgen/test-kit/billing-fixture';
import { newUserId, signedUpUser, startTestService, topUp } from '@productgen/test-kit/billing-service';
import { refusal } from '@productgen/test-kit/internal-api';
import { MongoFixture } from '@productgen/test-kit/mongo-fixture';

// One contract, two implementations: billing's internal routes as the real billing service answers them, and as the
// stand-in the generation tests run against answers them. A stand-in that drifts from the real semantics hid a bug
// once (a refused reservation was remembered by billing but not by the stand-in), so both run every test here.
jest.setTimeout(120_000);

const SIGNUP_CREDITS = 10;

interface RunningBilling {
  url: string;
  /** A new user holding the signup bonus. */
  signUp(): Promise<string>;
  /** A paid purchase of the smallest package; resolves once the credits are spendable. */
  topUp(userId: string): Promise<void>;
  close(): Promise<void>;
}

interface Implementation {
  name: string;
  start(): Promise<RunningBilling>;
}

const TOP_UP_CREDITS_STAND_IN = 50;

const standIn: Implementation = {
  name: 'stand-in (generation tests)',
  async start() {
    const fixture = new BillingFixture();
    await fixture.start();
    return {
      url: fixture.url,
      signUp: async () => {
        const userId = newUserId();
        fixture.account(userId, SIGNUP_CREDITS);
        return userId;
      },
      topUp: async (userId) => fixture.account(userId, fixture.credits(userId) + TOP_UP_CREDITS_STAND_IN, true),
      close: () => fixture.stop(),
    };
  },
};

const realBilling: Implementation = {
  name: 'billing service',
  async start() {
    const mongo = new MongoFixture();
    await mongo.start();
    const service = await startTestService(mongo);
    return {
      url: service.url,
      signUp: () => signedUpUser(service),
      // The webhook answers once the purchase's credits are applied.
      topUp: (userId) => topUp(service, userId, 1),
      close: async () => {
        await service.close();
        await mongo.stop();
      },
    };
  },
};

describe.each([standIn, realBilling])('billing internal API: $name', (implementation) => {
  let billing: RunningBilling;
  let client: InternalApiClient<typeof billingInternalRoutes>;

  beforeAll(async () => {
    billing = await implementation.start();
    client = createInternalApiClient(billingInternalRoutes, { baseUrl: billing.url, target: 'billing' });
  });
  afterAll(async () => {
    await billing?.close();
  });

  const reserve = (userId: string, generationUuid: string, count: number) =>
    client.reserveCredits({ body: { userId, generationUuid, count } });
  const creditsOf = async (userId: string) => (await client.userBilling({ params: { userId } })).credits;

  test('an unknown user has no credits and never purchased', async () => {
    expect(await client.userBilling({ params: { userId: newUserId() } })).toEqual({ credits: 0, purchaser: false });
  });

  test('a reservation debits all its images at once; a retry answers the same and charges once', async () => {
    const userId = await billing.signUp();
    const generationUuid = randomUUID();
    const first = await reserve(userId, generationUuid, 3);
    expect(first).toEqual({ balance: SIGNUP_CREDITS - 3, watermark: true });
    expect(await reserve(userId, generationUuid, 3)).toEqual(first);
    expect(await creditsOf(userId)).toBe(SIGNUP_CREDITS - 3);
  });

  test('an accepted generation id with another count or user is a 409', async () => {
    const userId = await billing.signUp();
    const other = await billing.signUp();
    const generationUuid = randomUUID();
    await reserve(userId, generationUuid, 2);
    expect(await refusal(reserve(userId, generationUuid, 4))).toEqual({
      status: 409,
      message: RESERVATION_CONFLICT_MESSAGE,
    });
    expect(await refusal(reserve(other, generationUuid, 2))).toEqual({
      status: 409,
      message: RESERVATION_CONFLICT_MESSAGE,
    });
    expect(await creditsOf(userId)).toBe(SIGNUP_CREDITS - 2);
    expect(await creditsOf(other)).toBe(SIGNUP_CREDITS);
  });

  test('a refused reservation debits nothing and is not remembered: after a top-up any count goes through', async () => {
    const userId = await billing.signUp();
    await reserve(userId, randomUUID(), 8);
    const refusedFive = randomUUID();
    const refusedThree = randomUUID();
    expect(await refusal(reserve(userId, refusedFive, 5))).toEqual({ status: 402, message: OUT_OF_CREDITS_MESSAGE });
    expect(await refusal(reserve(userId, refusedThree, 3))).toEqual({ status: 402, message: OUT_OF_CREDITS_MESSAGE });
    expect(await creditsOf(userId)).toBe(2);

    await billing.topUp(userId);
    const afterTopUp = await creditsOf(userId);
    expect(afterTopUp).toBeGreaterThan(5);
    // The same generation ids, with the count refused before and with another one.
    expect(await reserve(userId, refusedFive, 5)).toEqual({ balance: afterTopUp - 5, watermark: false });
    expect(await reserve(userId, refusedThree, 1)).toEqual({ balance: afterTopUp - 6, watermark: false });
    expect(await creditsOf(userId)).toBe(afterTopUp - 6);
  });

  test("a give-back returns one charged image's credit, once, to its owner only", async () => {
    const userId = await billing.signUp();
    const other = await billing.signUp();
    const generationUuid = randomUUID();
    await reserve(userId, generationUuid, 2);
    const giveBack = (owner: string, imageIndex: number) =>
      client.giveBackCredit({ body: { userId: owner, generationUuid, imageIndex, reason: 'failed' } });

    expect(await giveBack(userId, 1)).toEqual({ balance: SIGNUP_CREDITS - 1, refunded: true });
    expect(await giveBack(userId, 1)).toEqual({ balance: SIGNUP_CREDITS - 1, refunded: false });
    // Never charged: image 2 of a 2-image reservation, and another user's claim on image 0.
    expect(await giveBack(userId, 2)).toEqual({ balance: SIGNUP_CREDITS - 1, refunded: false });
    expect(await giveBack(other, 0)).toEqual({ balance: SIGNUP_CREDITS, refunded: false });
    expect(await creditsOf(userId)).toBe(SIGNUP_CREDITS - 1);
  });

  test("a reservation's state: none before and after a refusal, charged with its images once applied", async () => {
    const userId = await billing.signUp();
    const other = await billing.signUp();
    const generationUuid = randomUUID();
    const stateOf = (owner: string, uuid: string) =>
      client.reservationState({ params: { userId: owner, generationUuid: uuid } });

    expect(await stateOf(userId, generationUuid)).toEqual({ state: 'none', images: 0, watermark: true });
    await reserve(userId, generationUuid, 3);
    expect(await stateOf(userId, generationUuid)).toEqual({ state: 'charged', images: 3, watermark: true });
    // Another user's generation is not theirs to ask about.
    expect(await stateOf(other, generationUuid)).toEqual({ state: 'none', images: 0, watermark: true });

    const refused = randomUUID();
    expect((await refusal(reserve(userId, refused, 50))).status).toBe(402);
    expect(await stateOf(userId, refused)).toEqual({ state: 'none', images: 0, watermark: true });
  });

  test('bad input is a 400 naming the field', async () => {
    const answer = await fetch(`${billing.url}${billingInternalRoutes.reserveCredits.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userId: newUserId(), generationUuid: randomUUID(), count: 0 }),
    });
    expect(answer.status).toBe(400);
    const body = (await answer.json()) as { code: number; error: string };
    expect(body.code).toBe(400);
    expect(body.error).toContain('count');
  });
});
