import { randomUUID } from 'node:crypto';
import { OUT_OF_CREDITS_MESSAGE, topics } from '@productgen/contracts';
import { SIGNUP_BONUS_DESCRIPTION, sumOfEntries } from '../src';
import { CreditService } from '../src/credits';
import { Ledger } from '../src/data/ledger';
import { createModels } from '../src/data/models';
import { RefundSlots } from '../src/data/refund-slots';
import { userSignedUpHandler } from '../src/messaging/consumers';
import {
  MongoFixture,
  balanceOf,
  call,
  collectMessages,
  entriesOf,
  giveBack,
  grantSignupBonus,
  newUserId,
  reserve,
  silentLogger,
  startTestService,
  topUp,
  userWithCredits,
  waitFor,
  waitForBalanceMessage,
  type TestService,
} from './helpers';

jest.setTimeout(120_000);

const mongo = new MongoFixture();
let billing: TestService;

let credits: () => CreditService;

beforeAll(async () => {
  await mongo.start();
  billing = await startTestService(mongo);
  // A second instance of the service's credit logic on the same database, as another replica would run it.
  const models = await createModels(billing.connection);
  const ledger = new Ledger(models, {
    staleMs: 60_000,
    now: () => new Date(),
    logger: silentLogger,
    publish: async () => {},
  });
  const refundLimit = { maxRefunds: 5, windowMs: 86_400_000 };
  const instance = new CreditService(
    ledger,
    models.refundRequests,
    new RefundSlots(models.refundSlots, refundLimit),
    refundLimit,
    () => new Date(),
  );
  credits = () => instance;
});

afterAll(async () => {
  await billing?.close();
  await mongo.stop();
});

describe('signup bonus', () => {
  it('grants 10 credits once per user, however often user.signed_up arrives', async () => {
    const userId = newUserId();
    await billing.balanceChanges();
    await Promise.all([grantSignupBonus(billing.bus, userId), grantSignupBonus(billing.bus, userId)]);
    await waitForBalanceMessage(billing, userId, 10, 'the signup bonus');
    // Republished under new message ids (auth retrying after a crash), handled concurrently: still once.
    const handle = userSignedUpHandler(credits(), silentLogger);
    const payload = { userId, email: 'again@example.com', name: 'Again', ref_code: null, at: new Date().toISOString() };
    await Promise.all(
      Array.from({ length: 5 }, () =>
        handle({
          id: randomUUID(),
          topic: topics.userSignedUp,
          payload,
          headers: {},
          deliveryCount: 1,
          publishedAt: new Date(),
        }),
      ),
    );
    expect(await balanceOf(billing, userId)).toBe(10);
    const entries = await entriesOf(billing, userId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ amount: 10, type: 'increase', balance_after: 10 });

    const log = await call<{ items: { description: string; balance_after: number }[]; total: number }>(
      billing,
      'GET',
      '/credits/log',
      { userId },
    );
    expect(log.body).toMatchObject({ total: 1, items: [{ description: SIGNUP_BONUS_DESCRIPTION, balance_after: 10 }] });
  });
});

describe('what a reader of the ledger can rely on', () => {
  it('credits.balance_changed is published only after the entries it counts: on receipt they add up to it', async () => {
    // A consumer in the place of auth: on each message it reads the user's entries and keeps what they sum to.
    const seen: { balance: number; sumOfEntries: number }[] = [];
    const userId = newUserId();
    await billing.bus.subscribe(`billing-test.reader.${userId}`, [topics.creditsBalanceChanged], async (message) => {
      const payload = message.payload as { userId: string; balance: number };
      if (payload.userId !== userId) return;
      seen.push({ balance: payload.balance, sumOfEntries: sumOfEntries(await entriesOf(billing, userId)) });
    });
    const received = (count: number) => waitFor(() => seen.length >= count, `balance message ${count}`);

    await grantSignupBonus(billing.bus, userId);
    await received(1);
    await topUp(billing, userId, 1);
    await received(2);
    const generationUuid = randomUUID();
    expect((await reserve(billing, userId, 5, generationUuid)).status).toBe(200);
    await received(3);
    expect((await giveBack(billing, userId, generationUuid, 4)).status).toBe(200);
    await received(4);
    expect(seen).toEqual([
      { balance: 10, sumOfEntries: 10 },
      { balance: 15, sumOfEntries: 15 },
      { balance: 10, sumOfEntries: 10 },
      { balance: 11, sumOfEntries: 11 },
    ]);
  });
});

describe('POST /internal/credits/reserve', () => {
  it('debits all or nothing and answers 402 with the out-of-credits text', async () => {
    const userId = await userWithCredits(billing, 3);
    const tooMany = await reserve(billing, userId, 4);
    expect(tooMany.status).toBe(402);
    expect(tooMany.body).toEqual({ code: 402, error: OUT_OF_CREDITS_MESSAGE });
    expect(await balanceOf(billing, userId)).toBe(3);

    const ok = await reserve(billing, userId, 3);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ balance: 0, watermark: true });
  });

  it('is idempotent by generationUuid: a retry answers the same and charges once', async () => {
    const userId = await userWithCredits(billing, 10);
    const generationUuid = randomUUID();
    const answers = await Promise.all(Array.from({ length: 8 }, () => reserve(billing, userId, 4, generationUuid)));
    for (const answer of answers) expect(answer).toMatchObject({ status: 200, body: { balance: 6, watermark: true } });
    expect(await balanceOf(billing, userId)).toBe(6);
    const refs = (await entriesOf(billing, userId)).map((entry) => entry.source_ref).sort();
    expect(refs).toEqual([...[0, 1, 2, 3].map((index) => `gen:${generationUuid}:${index}`), `signup:${userId}`].sort());
  });

  it.each([
    [5, 5],
    [5, 3],
    [3, 5],
  ])(
    'a refusal is not remembered: refused with %i, topped up, the same generation is accepted with %i',
    async (refusedCount, acceptedCount) => {
      const userId = await userWithCredits(billing, 2);
      const generationUuid = randomUUID();
      const refused = await reserve(billing, userId, refusedCount, generationUuid);
      expect(refused).toMatchObject({ status: 402, body: { code: 402, error: OUT_OF_CREDITS_MESSAGE } });
      // Another count while still short is judged on the balance too: 402, never "already used".
      expect((await reserve(billing, userId, 4, generationUuid)).status).toBe(402);

      await topUp(billing, userId, 2);
      await waitFor(async () => (await balanceOf(billing, userId)) === 52, 'the top-up');
      const accepted = await reserve(billing, userId, acceptedCount, generationUuid);
      expect(accepted).toMatchObject({ status: 200, body: { balance: 52 - acceptedCount, watermark: false } });

      // A retry of the accepted reservation answers the same and charges once; another count is a 409.
      expect((await reserve(billing, userId, acceptedCount, generationUuid)).body).toEqual(accepted.body);
      const otherCount = acceptedCount === 5 ? 3 : 5;
      expect((await reserve(billing, userId, otherCount, generationUuid)).status).toBe(409);
      expect(await balanceOf(billing, userId)).toBe(52 - acceptedCount);
      const charged = (await entriesOf(billing, userId)).filter((entry) =>
        entry.source_ref.startsWith(`gen:${generationUuid}:`),
      );
      expect(charged.map((entry) => entry.source_ref).sort()).toEqual(
        Array.from({ length: acceptedCount }, (_unused, index) => `gen:${generationUuid}:${index}`),
      );
      expect(sumOfEntries(await entriesOf(billing, userId))).toBe(52 - acceptedCount);
    },
  );

  it('concurrent reservations of one generation with two counts: one count is charged once, never overdrawn', async () => {
    const userId = await userWithCredits(billing, 4);
    const generationUuid = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_unused, index) => reserve(billing, userId, index % 2 === 0 ? 5 : 3, generationUuid)),
    );
    // 5 never fits in 4: refused (402), or a 409 once the 3 was applied; every 3 is the one reservation.
    answers.forEach((answer, index) => {
      if (index % 2 === 0) expect([402, 409]).toContain(answer.status);
      else expect(answer).toMatchObject({ status: 200, body: { balance: 1 } });
    });
    expect(await balanceOf(billing, userId)).toBe(1);
    const entries = await entriesOf(billing, userId);
    expect(entries.filter((entry) => entry.source_ref.startsWith(`gen:${generationUuid}:`))).toHaveLength(3);
    expect(sumOfEntries(entries)).toBe(1);
  });

  it('refuses to reuse a generationUuid for another count or user (409)', async () => {
    const userId = await userWithCredits(billing, 10);
    const generationUuid = randomUUID();
    expect((await reserve(billing, userId, 2, generationUuid)).status).toBe(200);
    expect((await reserve(billing, userId, 3, generationUuid)).status).toBe(409);
    expect((await reserve(billing, newUserId(), 2, generationUuid)).status).toBe(409);
    expect(await balanceOf(billing, userId)).toBe(8);
  });

  it('a user with 5 credits and 50 concurrent reservations of 1: exactly 5 succeed, never below 0', async () => {
    const userId = await userWithCredits(billing, 5);
    const answers = await Promise.all(Array.from({ length: 50 }, () => reserve(billing, userId, 1)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 402)).toHaveLength(45);
    expect(await balanceOf(billing, userId)).toBe(0);
    const entries = await entriesOf(billing, userId);
    expect(sumOfEntries(entries)).toBe(0);
    // Every balance the ledger ever recorded is non-negative, and the five successes saw 4, 3, 2, 1, 0.
    const afterDebits = entries.filter((entry) => entry.type === 'decrease').map((entry) => entry.balance_after);
    expect(Math.min(...afterDebits)).toBeGreaterThanOrEqual(0);
    expect(afterDebits.slice(-5).sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('rejects bad input with a 400 naming the field', async () => {
    const answer = await call(billing, 'POST', '/internal/credits/reserve', {
      body: { userId: newUserId(), generationUuid: 'nope', count: 0 },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 400 });
    expect(String(answer.body.error)).toMatch(/generationUuid/);
    expect(String(answer.body.error)).toMatch(/count/);
  });
});

describe('POST /internal/credits/give-back', () => {
  it('gives a charged image back once; an uncharged one never', async () => {
    const userId = await userWithCredits(billing, 10);
    const generationUuid = randomUUID();
    await reserve(billing, userId, 3, generationUuid);
    const first = await Promise.all(Array.from({ length: 5 }, () => giveBack(billing, userId, generationUuid, 1)));
    expect(first.filter((answer) => answer.body.refunded)).toHaveLength(1);
    expect(await balanceOf(billing, userId)).toBe(8);

    // Index 3 was never charged (count 3), and another user cannot get this generation's credit.
    expect((await giveBack(billing, userId, generationUuid, 3, 'skipped')).body).toEqual({
      balance: 8,
      refunded: false,
    });
    const stranger = newUserId();
    expect((await giveBack(billing, stranger, generationUuid, 0)).body).toEqual({ balance: 0, refunded: false });
    expect(await balanceOf(billing, userId)).toBe(8);
  });
});

describe('GET /internal/users/:userId/billing', () => {
  it('answers credits and the purchaser flag (zero for an unknown user)', async () => {
    const unknown = await call(billing, 'GET', `/internal/users/${newUserId()}/billing`);
    expect(unknown.body).toEqual({ credits: 0, purchaser: false });
    const userId = await userWithCredits(billing, 7);
    expect((await call(billing, 'GET', `/internal/users/${userId}/billing`)).body).toEqual({
      credits: 7,
      purchaser: false,
    });
  });
});

describe('credits.balance_changed', () => {
  it('is published after every balance change with a version that increases per user', async () => {
    const received = await collectMessages(billing.bus, `test.balance.${randomUUID()}`, [topics.creditsBalanceChanged]);
    const userId = await userWithCredits(billing, 6);
    const generationUuid = randomUUID();
    await reserve(billing, userId, 2, generationUuid);
    await giveBack(billing, userId, generationUuid, 0);
    const mine = () =>
      received
        .map((message) => message.payload as { userId: string; balance: number; version: number })
        .filter((payload) => payload.userId === userId);
    await waitFor(() => mine().length === 4, 'four balance messages');
    expect(mine().map(({ balance, version }) => ({ balance, version }))).toEqual([
      { balance: 10, version: 1 },
      { balance: 6, version: 2 },
      { balance: 4, version: 3 },
      { balance: 5, version: 4 },
    ]);
  });
});

describe('the credit log', () => {
  it('pages newest first with the fields of a credit record', async () => {
    const userId = await userWithCredits(billing, 10);
    for (let index = 0; index < 3; index += 1) {
      billing.clock.advance(1000);
      await reserve(billing, userId, 1);
    }
    const page1 = await call<{ items: Record<string, unknown>[]; total: number }>(
      billing,
      'GET',
      '/credits/log?page=1&pageSize=2',
      { userId },
    );
    expect(page1.status).toBe(200);
    expect(page1.body.total).toBe(4);
    expect(page1.body.items.map((item) => item.balance_after)).toEqual([7, 8]);
    expect(page1.body.items[0]).toEqual({
      id: expect.any(String),
      created_at: expect.any(String),
      description: 'Image generation',
      generation_id: expect.any(String),
      transaction_type: 'decrease',
      amount: 1,
      balance_after: 7,
    });
    const page2 = await call<{ items: Record<string, unknown>[] }>(billing, 'GET', '/credits/log?page=2&pageSize=2', {
      userId,
    });
    expect(page2.body.items.map((item) => [item.transaction_type, item.balance_after])).toEqual([
      ['decrease', 9],
      ['increase', 10],
    ]);
  });

  it('needs the gateway user header (401) and valid paging (400)', async () => {
    expect((await call(billing, 'GET', '/credits/log')).status).toBe(401);
    expect((await call(billing, 'GET', '/credits/log?pageSize=1000', { userId: newUserId() })).status).toBe(400);
  });
});
