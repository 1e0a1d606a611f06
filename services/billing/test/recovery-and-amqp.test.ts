import { randomBytes, randomUUID } from 'node:crypto';
import { createAmqpBus, type MessageBus } from '@productgen/bus';
import { topics } from '@productgen/contracts';
import { planPurchase, planReservation, sumOfEntries } from '../src';
import {
  MongoFixture,
  balanceOf,
  collectMessages,
  entriesOf,
  grantSignupBonus,
  newUserId,
  reserve,
  silentLogger,
  startTestService,
  userWithCredits,
  waitFor,
  type TestService,
} from './helpers';

jest.setTimeout(120_000);

const mongo = new MongoFixture();

beforeAll(async () => {
  await mongo.start();
});

afterAll(async () => {
  await mongo.stop();
});

describe('crash recovery', () => {
  let billing: TestService;

  beforeAll(async () => {
    billing = await startTestService(mongo, { env: { LEDGER_STALE_OPERATION_MS: '1000' } });
  });

  afterAll(async () => {
    await billing?.close();
  });

  /** What a process leaves when it dies after claiming an operation (and maybe after moving the balance). */
  async function abandon(operation: ReturnType<typeof planPurchase>, balanceMoved: boolean): Promise<void> {
    const claimedAt = billing.clock.now();
    await billing.connection.collection('ledger_operations').insertOne({
      _id: operation.key as never,
      kind: operation.kind,
      user_id: operation.userId,
      fingerprint: operation.fingerprint,
      plan: { delta: operation.delta, marks_purchaser: operation.marksPurchaser, entries: operation.entries },
      state: 'pending',
      claim_token: 'dead-process',
      claimed_at: claimedAt,
      balance: null,
      version: null,
      purchaser: null,
      published: false,
      created_at: claimedAt,
    });
    if (balanceMoved) await moveBalance(operation);
  }

  /** Step 2 of an operation (the account's conditional update), as its claimant does it. */
  async function moveBalance(operation: ReturnType<typeof planPurchase>): Promise<void> {
    await billing.connection.collection('accounts').updateOne(
      { _id: operation.userId as never },
      {
        $inc: { balance: operation.delta, version: 1 },
        $push: { recent_ops: { key: operation.key, fingerprint: operation.fingerprint } as never },
        $setOnInsert: { purchaser: false },
      },
      { upsert: true },
    );
  }

  it('finishes an operation whose balance moved, completes an owed credit, voids an unmoved debit', async () => {
    const moved = await userWithCredits(billing, 10);
    const movedReservation = planReservation(moved, randomUUID(), 3);
    await abandon(movedReservation, true);

    const owed = newUserId();
    const purchase = planPurchase(owed, `cs_${randomBytes(6).toString('hex')}`, 1);
    await abandon(purchase, false);

    const unmoved = await userWithCredits(billing, 10);
    const voidReservation = planReservation(unmoved, randomUUID(), 2);
    await abandon(voidReservation, false);

    // Once the claims are stale, the sweep takes them over.
    billing.clock.advance(5000);
    await billing.service.recover();
    // The periodic sweep (every LEDGER_STALE_OPERATION_MS) may have taken one of them over first: wait for all.
    const operations = billing.connection.collection('ledger_operations');
    const keys = [movedReservation.key, purchase.key, voidReservation.key] as never[];
    await waitFor(
      async () => (await operations.countDocuments({ _id: { $in: keys }, state: 'pending' })) === 0,
      'the three claims settled',
    );

    expect(await balanceOf(billing, moved)).toBe(7);
    expect(sumOfEntries(await entriesOf(billing, moved))).toBe(7);
    expect(await balanceOf(billing, owed)).toBe(5);
    expect((await billing.service.billingOf(owed)).purchaser).toBe(true);
    expect(sumOfEntries(await entriesOf(billing, owed))).toBe(5);
    expect(await balanceOf(billing, unmoved)).toBe(10);
    expect(sumOfEntries(await entriesOf(billing, unmoved))).toBe(10);

    // The voided reservation left nothing behind: a retry is judged on the balance of now and charged once.
    const generationUuid = voidReservation.entries[0]!.generationId!;
    expect(
      await billing.connection.collection('ledger_operations').countDocuments({ _id: voidReservation.key as never }),
    ).toBe(0);
    expect((await reserve(billing, unmoved, 2, generationUuid)).body).toEqual({ balance: 8, watermark: true });
    expect(sumOfEntries(await entriesOf(billing, unmoved))).toBe(8);
    // The moved one answers its success again.
    const movedUuid = movedReservation.entries[0]!.generationId!;
    expect((await reserve(billing, moved, 3, movedUuid)).body).toEqual({ balance: 7, watermark: true });
  });

  it('a claimant that stalled past its voided claim: its count completes it, another count is a conflict', async () => {
    // The sweep voided (deleted) the claim of a reservation of 3; then its stalled claimant moved the balance.
    const userId = await userWithCredits(billing, 10);
    const generationUuid = randomUUID();
    const stalled = planReservation(userId, generationUuid, 3);
    await moveBalance(stalled);

    const otherCount = await reserve(billing, userId, 5, generationUuid);
    expect(otherCount.status).toBe(409);
    expect(await balanceOf(billing, userId)).toBe(7);
    const operations = billing.connection.collection('ledger_operations');
    expect(await operations.countDocuments({ _id: stalled.key as never })).toBe(0);

    expect((await reserve(billing, userId, 3, generationUuid)).body).toEqual({ balance: 7, watermark: true });
    const entries = await entriesOf(billing, userId);
    expect(entries.filter((entry) => entry.source_ref.startsWith(`gen:${generationUuid}:`))).toHaveLength(3);
    expect(sumOfEntries(entries)).toBe(7);
  });
});

const AMQP_URL = process.env.AMQP_URL;

(AMQP_URL ? describe : describe.skip)('on RabbitMQ', () => {
  let bus: MessageBus;
  let billing: TestService;

  beforeAll(async () => {
    // A run of its own: a unique exchange, so other runs' queues never see these messages.
    bus = await createAmqpBus({
      url: AMQP_URL!,
      exchange: `billing-test-${randomBytes(4).toString('hex')}`,
      logger: silentLogger,
    });
    billing = await startTestService(mongo, { bus });
  });

  afterAll(async () => {
    await billing?.close();
    await bus?.close();
  });

  it('grants the signup bonus from user.signed_up and publishes credits.balance_changed', async () => {
    const received = await collectMessages(bus, `billing-test.balance.${randomUUID()}`, [topics.creditsBalanceChanged]);
    const userId = newUserId();
    await grantSignupBonus(bus, userId);
    await grantSignupBonus(bus, userId);
    await waitFor(async () => (await balanceOf(billing, userId)) === 10, 'the signup bonus over RabbitMQ');
    await waitFor(
      () => received.some((message) => (message.payload as { userId: string }).userId === userId),
      'credits.balance_changed over RabbitMQ',
    );
    expect(await entriesOf(billing, userId)).toHaveLength(1);
  });
});
