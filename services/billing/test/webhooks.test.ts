import { randomBytes } from 'node:crypto';
import { topics } from '@productgen/contracts';
import { DEV_CHECKOUT_WEBHOOK_SECRET, checkoutEventTypes, signLikeStripe } from '../src';
import {
  MongoFixture,
  balanceOf,
  call,
  createCheckout,
  collectMessages,
  entriesOf,
  newUserId,
  reserve,
  startTestService,
  waitFor,
  type TestService,
} from './helpers';

jest.setTimeout(180_000);

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

type EventType = (typeof checkoutEventTypes)[keyof typeof checkoutEventTypes];

function checkoutEvent(type: EventType, sessionId: string, paymentStatus: 'paid' | 'unpaid') {
  return JSON.stringify({
    id: `evt_${randomBytes(8).toString('hex')}`,
    object: 'event',
    type,
    data: { object: { id: sessionId, object: 'checkout.session', payment_status: paymentStatus, metadata: {} } },
  });
}

async function postWebhook(payload: string, signature: string | undefined): Promise<number> {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (signature !== undefined) headers['stripe-signature'] = signature;
  const response = await fetch(`${billing.url}/payments/webhook`, { method: 'POST', headers, body: payload });
  await response.arrayBuffer();
  return response.status;
}

function sign(payload: string, signedAt = billing.clock.now()): string {
  return signLikeStripe(payload, DEV_CHECKOUT_WEBHOOK_SECRET, signedAt);
}

/** A user and a pending checkout session of theirs for a package. */
async function pendingCheckout(packageId: 1 | 2 | 3 = 2): Promise<{ userId: string; sessionId: string }> {
  const userId = newUserId();
  const created = await createCheckout(billing, userId, packageId);
  expect(created.status).toBe(200);
  return { userId, sessionId: created.body.sessionId };
}

describe('POST /payments/create-checkout-session', () => {
  it('makes a session for a paid package, with absolute web-origin URLs, and a pending payment record', async () => {
    const userId = newUserId();
    const created = await createCheckout(billing, userId, 3);
    expect(created.status).toBe(200);
    expect(created.body.url).toBe(`http://localhost:8080/dev-checkout/${created.body.sessionId}`);
    const stored = await billing.connection
      .collection('dev_checkout_sessions')
      .findOne({ _id: created.body.sessionId as never });
    expect(stored).toMatchObject({
      amount_cents: 999,
      currency: 'usd',
      metadata: { userId, packageId: '3' },
      success_url: 'http://localhost:3000/dashboard?payment=success&session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://localhost:3000/pricing',
    });
    const records = await call<{ records: Record<string, unknown>[] }>(billing, 'GET', '/payment-records', { userId });
    expect(records.body.records).toEqual([
      expect.objectContaining({
        id: created.body.sessionId,
        package: 3,
        credits: 200,
        amount_cents: 999,
        status: 'pending',
      }),
    ]);
  });

  it('returns the buyer to the web origin the gateway vouched for, whatever host it was opened at', async () => {
    const userId = newUserId();
    // As the gateway sends them for a buyer who opened http://127.0.0.1:3000 (API at 127.0.0.1:8080).
    const created = await createCheckout(billing, userId, 1, {
      'X-Web-Origin': 'http://127.0.0.1:3000',
      'X-Forwarded-Proto': 'http',
      'X-Forwarded-Host': '127.0.0.1:8080',
    });
    expect(created.status).toBe(200);
    const { sessionId } = created.body;
    expect(created.body.url).toBe(`http://127.0.0.1:8080/dev-checkout/${sessionId}`);
    const stored = await billing.connection.collection('dev_checkout_sessions').findOne({ _id: sessionId as never });
    expect(stored).toMatchObject({
      success_url: 'http://127.0.0.1:3000/dashboard?payment=success&session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://127.0.0.1:3000/pricing',
    });
    // The dev checkout page lets its form return there (CSP form-action), and Pay does.
    const page = await fetch(`${billing.url}/dev-checkout/${sessionId}`);
    expect(page.headers.get('content-security-policy')).toMatch(/form-action 'self' http:\/\/127\.0\.0\.1:3000;/);
    // Pay's form post carries the page's Origin (the gateway refuses a state change from Origin: null).
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    const pay = await fetch(`${billing.url}/dev-checkout/${sessionId}/pay`, { method: 'POST', redirect: 'manual' });
    expect(pay.headers.get('location')).toBe(`http://127.0.0.1:3000/dashboard?payment=success&session_id=${sessionId}`);
  });

  it('refuses the Free package and a missing user', async () => {
    const free = await call(billing, 'POST', '/payments/create-checkout-session', {
      userId: newUserId(),
      body: { package: 0 },
    });
    expect(free.status).toBe(400);
    expect(String(free.body.error)).toMatch(/Free tier cannot be bought/);
    expect((await call(billing, 'POST', '/payments/create-checkout-session', { body: { package: 1 } })).status).toBe(
      401,
    );
  });
});

describe('POST /payments/webhook', () => {
  it('credits a valid paid event once, marks the purchaser and records the payment', async () => {
    const messages = await collectMessages(billing.bus, 'test.webhooks.payments', [topics.paymentCompleted]);
    const { userId, sessionId } = await pendingCheckout(2);
    expect((await call(billing, 'GET', `/internal/users/${userId}/billing`)).body).toEqual({
      credits: 0,
      purchaser: false,
    });
    const payload = checkoutEvent(checkoutEventTypes.completed, sessionId, 'paid');
    expect(await postWebhook(payload, sign(payload))).toBe(200);
    expect(await postWebhook(payload, sign(payload))).toBe(200);
    expect((await call(billing, 'GET', `/internal/users/${userId}/billing`)).body).toEqual({
      credits: 50,
      purchaser: true,
    });
    // After the purchase, new creations carry no watermark.
    expect((await reserve(billing, userId, 1)).body).toEqual({ balance: 49, watermark: false });
    const records = await call<{ records: { status: string }[] }>(billing, 'GET', '/payment-records', { userId });
    expect(records.body.records.map((record) => record.status)).toEqual(['paid']);
    await waitFor(
      () => messages.some((message) => (message.payload as { sessionId: string }).sessionId === sessionId),
      'payment.completed',
    );
  });

  it('credits once when the same event arrives 20 times concurrently', async () => {
    const { userId, sessionId } = await pendingCheckout(1);
    const payload = checkoutEvent(checkoutEventTypes.completed, sessionId, 'paid');
    const signature = sign(payload);
    const statuses = await Promise.all(Array.from({ length: 20 }, () => postWebhook(payload, signature)));
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(await balanceOf(billing, userId)).toBe(5);
    expect((await entriesOf(billing, userId)).map((entry) => entry.source_ref)).toEqual([`payment:${sessionId}`]);
  });

  it('answers 400 and credits nothing for a tampered body, a missing signature or an old timestamp', async () => {
    const { userId, sessionId } = await pendingCheckout(3);
    const payload = checkoutEvent(checkoutEventTypes.completed, sessionId, 'paid');
    const tampered = payload.replace('"paid"', '"paid" ');
    expect(await postWebhook(tampered, sign(payload))).toBe(400);
    expect(await postWebhook(payload, undefined)).toBe(400);
    expect(await postWebhook(payload, '')).toBe(400);
    expect(await postWebhook(payload, 't=123,v1=deadbeef')).toBe(400);
    const old = new Date(billing.clock.now().getTime() - 301_000);
    expect(await postWebhook(payload, sign(payload, old))).toBe(400);
    const wrongSecret = signLikeStripe(payload, 'whsec_someone_else', billing.clock.now());
    expect(await postWebhook(payload, wrongSecret)).toBe(400);
    expect(await balanceOf(billing, userId)).toBe(0);
    expect(await entriesOf(billing, userId)).toHaveLength(0);
    // Still within the window at 299 s: accepted.
    const recent = new Date(billing.clock.now().getTime() - 299_000);
    expect(await postWebhook(payload, sign(payload, recent))).toBe(200);
    expect(await balanceOf(billing, userId)).toBe(200);
  });

  it('credits nothing for completed-but-unpaid until async_payment_succeeded', async () => {
    const { userId, sessionId } = await pendingCheckout(2);
    const unpaid = checkoutEvent(checkoutEventTypes.completed, sessionId, 'unpaid');
    expect(await postWebhook(unpaid, sign(unpaid))).toBe(200);
    expect(await balanceOf(billing, userId)).toBe(0);
    const check = await call(billing, 'POST', '/payments/check-success', { userId, body: { sessionId } });
    expect(check.body).toEqual({ paid: false, credits: 0 });

    const failedElsewhere = await pendingCheckout(2);
    const failed = checkoutEvent(checkoutEventTypes.asyncFailed, failedElsewhere.sessionId, 'unpaid');
    expect(await postWebhook(failed, sign(failed))).toBe(200);
    expect(await balanceOf(billing, failedElsewhere.userId)).toBe(0);

    const succeeded = checkoutEvent(checkoutEventTypes.asyncSucceeded, sessionId, 'paid');
    expect(await postWebhook(succeeded, sign(succeeded))).toBe(200);
    expect(await balanceOf(billing, userId)).toBe(50);
    const after = await call(billing, 'POST', '/payments/check-success', { userId, body: { sessionId } });
    expect(after.body).toEqual({ paid: true, credits: 50 });
  });

  it('gives the same final balance for all four event types in every order', async () => {
    const types = [
      [checkoutEventTypes.completed, 'unpaid'],
      [checkoutEventTypes.asyncSucceeded, 'paid'],
      [checkoutEventTypes.asyncFailed, 'unpaid'],
      [checkoutEventTypes.expired, 'unpaid'],
    ] as const;
    const permutations = (items: number[]): number[][] =>
      items.length <= 1
        ? [items]
        : items.flatMap((item, index) =>
            permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]),
          );
    const orders = permutations([0, 1, 2, 3]);
    expect(orders).toHaveLength(24);
    const finals = new Set<string>();
    for (const order of orders) {
      const { userId, sessionId } = await pendingCheckout(1);
      for (const index of order) {
        const [type, status] = types[index]!;
        const payload = checkoutEvent(type, sessionId, status);
        expect(await postWebhook(payload, sign(payload))).toBe(200);
      }
      const records = await call<{ records: { status: string }[] }>(billing, 'GET', '/payment-records', { userId });
      finals.add(`${await balanceOf(billing, userId)}:${records.body.records[0]?.status}`);
    }
    expect([...finals]).toEqual(['5:paid']);
  });

  it('ignores event types it does not handle', async () => {
    const payload = JSON.stringify({ id: 'evt_other', type: 'customer.created', data: { object: { id: 'cus_1' } } });
    expect(await postWebhook(payload, sign(payload))).toBe(200);
  });
});

describe('dev checkout (embedded mode)', () => {
  it('serves the hosted page, and Pay delivers a signed webhook then returns to the success URL', async () => {
    const { userId, sessionId } = await pendingCheckout(2);
    const page = await fetch(`${billing.url}/dev-checkout/${sessionId}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/form-action 'self' http:\/\/localhost:3000/);
    const html = await page.text();
    expect(html).toContain('Pay $4.99');
    expect(html).toContain(`action="/dev-checkout/${sessionId}/pay"`);
    expect(html).toContain('href="http://localhost:3000/pricing">Cancel');

    const pay = await fetch(`${billing.url}/dev-checkout/${sessionId}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'card_number=4242+4242+4242+4242&expiry=12+%2F+34&cvc=123',
      redirect: 'manual',
    });
    expect(pay.status).toBe(303);
    expect(pay.headers.get('location')).toBe(`http://localhost:3000/dashboard?payment=success&session_id=${sessionId}`);
    expect(await balanceOf(billing, userId)).toBe(50);
    const check = await call(billing, 'POST', '/payments/check-success', { userId, body: {} });
    expect(check.body).toEqual({ paid: true, credits: 50 });

    // Paying again (a double click) credits nothing more.
    const again = await fetch(`${billing.url}/dev-checkout/${sessionId}/pay`, { method: 'POST', redirect: 'manual' });
    expect(again.status).toBe(303);
    expect(await balanceOf(billing, userId)).toBe(50);
  });

  it('declines Stripe’s decline test card, and 404s an unknown session', async () => {
    const { userId, sessionId } = await pendingCheckout(1);
    const declined = await fetch(`${billing.url}/dev-checkout/${sessionId}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'card_number=4000000000000002',
      redirect: 'manual',
    });
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('Your card was declined.');
    expect(await balanceOf(billing, userId)).toBe(0);
    expect((await fetch(`${billing.url}/dev-checkout/cs_dev_unknown`)).status).toBe(404);
  });
});
