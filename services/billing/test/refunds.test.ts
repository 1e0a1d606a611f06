import { randomUUID } from 'node:crypto';
import { topics } from '@productgen/contracts';
import { ALREADY_REFUNDED_MESSAGE, REFUND_NOT_FOUND_MESSAGE, refundLimitMessage, sumOfEntries } from '../src';
import {
  HOUR_MS,
  MongoFixture,
  balanceOf,
  call,
  collectMessages,
  entriesOf,
  giveBack,
  newUserId,
  reserve,
  startTestService,
  topUp,
  userWithCredits,
  waitFor,
  type TestService,
} from './helpers';

jest.setTimeout(120_000);

const mongo = new MongoFixture();
let billing: TestService;

beforeAll(async () => {
  await mongo.start();
  billing = await startTestService(mongo);
});

afterAll(async () => {
  await billing?.close();
  await mongo.stop();
});

function requestRefund(userId: string | undefined, body: Record<string, unknown>) {
  return call(billing, 'POST', '/support/refund', { userId, body });
}

describe('POST /support/refund', () => {
  it('gives a charged image back once (+1); asking again is a clear error', async () => {
    const userId = await userWithCredits(billing, 10);
    const generationUuid = randomUUID();
    await reserve(billing, userId, 5, generationUuid);
    const body = { generationUuid, imageIndex: 2, refundReason: 'The label is unreadable' };
    const first = await requestRefund(userId, body);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true, status: 'refunded', credits: 6 });
    const again = await requestRefund(userId, body);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ code: 409, error: ALREADY_REFUNDED_MESSAGE });
    expect(await balanceOf(billing, userId)).toBe(6);
    const stored = await billing.connection.collection('refund_requests').findOne({ user_id: userId });
    expect(stored).toMatchObject({
      generation_uuid: generationUuid,
      image_index: 2,
      reason: 'The label is unreadable',
    });
  });

  it('publishes the refunded image once (generation withdraws it); a give-back of a failed image publishes none', async () => {
    const refunds = await collectMessages(billing.bus, `billing-test.refunds.${randomUUID()}`, [
      topics.creditsImageRefunded,
    ]);
    const userId = await userWithCredits(billing, 10);
    const generationUuid = randomUUID();
    await reserve(billing, userId, 3, generationUuid);
    expect((await giveBack(billing, userId, generationUuid, 0)).body.refunded).toBe(true);
    const body = { generationUuid, imageIndex: 2, refundReason: 'Wrong colour' };
    expect((await requestRefund(userId, body)).status).toBe(200);
    expect((await requestRefund(userId, body)).status).toBe(409);
    await waitFor(() => refunds.length > 0, 'the refund message');
    // Give the give-back's and the second request's messages, were there any, time to arrive too.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(refunds.map((message) => message.payload)).toEqual([
      { userId, generation_uuid: generationUuid, image_index: 2, at: expect.any(String) },
    ]);
  });

  it("answers 404 for another user's image and for an image that was never charged", async () => {
    const owner = await userWithCredits(billing, 10);
    const generationUuid = randomUUID();
    await reserve(billing, owner, 2, generationUuid);
    const stranger = await userWithCredits(billing, 10);
    const theirs = await requestRefund(stranger, { generationUuid, imageIndex: 0, refundReason: 'not mine' });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual({ code: 404, error: REFUND_NOT_FOUND_MESSAGE });
    const uncharged = await requestRefund(owner, { generationUuid, imageIndex: 4, refundReason: 'never made' });
    expect(uncharged.status).toBe(404);
    expect(await balanceOf(billing, owner)).toBe(8);
    expect(await balanceOf(billing, stranger)).toBe(10);
  });

  it('does not refund an image whose credit the generation service already gave back', async () => {
    const userId = await userWithCredits(billing, 10);
    const generationUuid = randomUUID();
    await reserve(billing, userId, 1, generationUuid);
    expect((await giveBack(billing, userId, generationUuid, 0)).body.refunded).toBe(true);
    const refund = await requestRefund(userId, { generationUuid, imageIndex: 0, refundReason: 'failed' });
    expect(refund.status).toBe(409);
    expect(await balanceOf(billing, userId)).toBe(10);
  });

  it('needs a reason, a session and a valid image index', async () => {
    const userId = newUserId();
    const generationUuid = randomUUID();
    const blank = await requestRefund(userId, { generationUuid, imageIndex: 0, refundReason: '   ' });
    expect(blank.status).toBe(400);
    expect(String(blank.body.error)).toMatch(/refundReason/);
    expect((await requestRefund(userId, { generationUuid, imageIndex: 0 })).status).toBe(400);
    expect((await requestRefund(userId, { generationUuid, imageIndex: 9, refundReason: 'x' })).status).toBe(400);
    expect((await requestRefund(undefined, { generationUuid, imageIndex: 0, refundReason: 'x' })).status).toBe(401);
  });

  it('holds the limit exactly under concurrency: 20 refunds at once, 5 granted, 15 refused with the message', async () => {
    const userId = await userWithCredits(billing, 10);
    await topUp(billing, userId, 2);
    await waitFor(async () => (await balanceOf(billing, userId)) === 60, 'the top-up');
    const generations = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    for (const generationUuid of generations)
      expect((await reserve(billing, userId, 5, generationUuid)).status).toBe(200);
    const images = generations.flatMap((generationUuid) =>
      [0, 1, 2, 3, 4].map((imageIndex) => ({ generationUuid, imageIndex })),
    );

    const answers = await Promise.all(images.map((image) => requestRefund(userId, { ...image, refundReason: 'bad' })));
    const granted = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(granted).toHaveLength(5);
    expect(refused).toHaveLength(15);
    const message = 'Refund limit reached: at most 5 refunds per 24 hours. Please try again later or contact support.';
    for (const answer of refused) expect(answer.body).toEqual({ code: 429, error: message });
    expect(await balanceOf(billing, userId)).toBe(45);
    const entries = await entriesOf(billing, userId);
    expect(sumOfEntries(entries)).toBe(45);
    expect(entries.filter((entry) => entry.source_ref.startsWith('refund:'))).toHaveLength(5);
    expect(await billing.connection.collection('refund_requests').countDocuments({ user_id: userId })).toBe(5);
  });

  it('limits refunds to 5 per user in 24 hours, with a clear message, counting only granted ones', async () => {
    const userId = await userWithCredits(billing, 10);
    const generationUuid = randomUUID();
    await reserve(billing, userId, 5, generationUuid);
    const other = randomUUID();
    await reserve(billing, userId, 2, other);
    for (let index = 0; index < 5; index += 1) {
      const answer = await requestRefund(userId, { generationUuid, imageIndex: index, refundReason: 'bad' });
      expect(answer.status).toBe(200);
    }
    const limited = await requestRefund(userId, { generationUuid: other, imageIndex: 0, refundReason: 'bad' });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      code: 429,
      error: refundLimitMessage({ maxRefunds: 5, windowMs: 24 * HOUR_MS }),
    });
    expect(await balanceOf(billing, userId)).toBe(8);
    billing.clock.advance(24 * HOUR_MS + 1000);
    expect((await requestRefund(userId, { generationUuid: other, imageIndex: 0, refundReason: 'bad' })).status).toBe(
      200,
    );
    expect(await balanceOf(billing, userId)).toBe(9);
  });
});
