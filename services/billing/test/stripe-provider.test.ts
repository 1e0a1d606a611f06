import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  MongoFixture,
  balanceOf,
  call,
  createCheckout,
  newUserId,
  startTestService,
  topUp,
  type TestService,
} from './helpers';

jest.setTimeout(120_000);

const WEBHOOK_SECRET = 'whsec_test_stripe_provider';

interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: URLSearchParams;
}

/** Plays api.stripe.com on loopback: records each request and answers like Stripe's Checkout Sessions API. */
class FakeStripe {
  readonly requests: RecordedRequest[] = [];
  paymentStatus: 'paid' | 'unpaid' = 'unpaid';
  /** Sessions answer `status: expired` (never payable any more). */
  expired = false;
  private readonly server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      const body = new URLSearchParams(text);
      this.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      if (req.method === 'POST') this.created += 1;
      const id = req.method === 'POST' ? `cs_test_fake_${this.created}` : (req.url ?? '').split('/').pop();
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_fake' });
      res.end(
        JSON.stringify({
          id,
          object: 'checkout.session',
          url: `https://checkout.stripe.test/c/pay/${id}`,
          status: this.expired ? 'expired' : this.paymentStatus === 'paid' ? 'complete' : 'open',
          payment_status: this.paymentStatus,
          metadata: { userId: body.get('metadata[userId]') ?? this.lastUser, packageId: '2' },
          amount_total: 499,
          currency: 'usd',
        }),
      );
      if (req.method === 'POST') this.lastUser = body.get('metadata[userId]') ?? '';
    });
  });
  private lastUser = '';
  private created = 0;

  async start(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}

const mongo = new MongoFixture();
const stripe = new FakeStripe();
/** check-success's default CHECK_SUCCESS_CACHE_MS, which the tests move billing's clock past. */
const CHECK_SUCCESS_CACHE_MS = 5_000;
const pastTheCache = () => billing.clock.advance(CHECK_SUCCESS_CACHE_MS + 1);
let billing: TestService;

beforeAll(async () => {
  await mongo.start();
  const port = await stripe.start();
  billing = await startTestService(mongo, {
    env: {
      STRIPE_SECRET_KEY: 'sk_test_local',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_HOST: '127.0.0.1',
      STRIPE_API_PORT: String(port),
      STRIPE_API_PROTOCOL: 'http',
      WEB_URL: 'https://app.example.com',
    },
  });
});

afterAll(async () => {
  await billing?.close();
  await stripe.close();
  await mongo.stop();
});

describe('Stripe provider', () => {
  it('sends the exact checkout session request Stripe expects', async () => {
    expect(billing.service.provider).toBe('stripe');
    const userId = newUserId();
    const created = await createCheckout(billing, userId, 2);
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      sessionId: 'cs_test_fake_1',
      url: 'https://checkout.stripe.test/c/pay/cs_test_fake_1',
    });

    const sent = stripe.requests[0]!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/checkout/sessions');
    expect(sent.headers.authorization).toBe('Bearer sk_test_local');
    expect(sent.headers['idempotency-key']).toMatch(new RegExp(`^checkout-${userId}-2-`));
    expect(Object.fromEntries(sent.body)).toMatchObject({
      mode: 'payment',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '499',
      'line_items[0][price_data][product_data][name]': 'Small Business: 50 image credits',
      success_url: 'https://app.example.com/dashboard?payment=success&session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://app.example.com/pricing',
      client_reference_id: userId,
      'metadata[userId]': userId,
      'metadata[packageId]': '2',
    });
    // The dev checkout does not exist when Stripe is configured.
    expect((await fetch(`${billing.url}/dev-checkout/cs_test_fake_1`)).status).toBe(404);
  });

  it('check-success asks Stripe about a pending session and credits it once when paid', async () => {
    const userId = newUserId();
    stripe.paymentStatus = 'unpaid';
    const created = await createCheckout(billing, userId, 2);
    const { sessionId } = created.body;
    expect(sessionId).toBe('cs_test_fake_2');
    expect((await call(billing, 'POST', '/payments/check-success', { userId, body: {} })).body).toEqual({
      paid: false,
      credits: 0,
    });
    stripe.paymentStatus = 'paid';
    pastTheCache(); // the "not paid yet" just heard is reused until then
    const check = await call(billing, 'POST', '/payments/check-success', { userId, body: { sessionId } });
    expect(check.body).toEqual({ paid: true, credits: 50 });
    const retrieve = stripe.requests.at(-1)!;
    expect(retrieve).toMatchObject({ method: 'GET', path: `/v1/checkout/sessions/${sessionId}` });

    // The webhook arriving afterwards finds the session credited already.
    await topUp(billing, userId, 2, sessionId, WEBHOOK_SECRET);
    expect(await balanceOf(billing, userId)).toBe(50);
  });

  describe('check-success does not ask Stripe on every request', () => {
    const asked = (sessionId: string) =>
      stripe.requests.filter((request) => request.method === 'GET' && request.path.endsWith(`/${sessionId}`)).length;
    const check = (userId: string, sessionId: string) =>
      call(billing, 'POST', '/payments/check-success', { userId, body: { sessionId } });

    beforeEach(() => {
      stripe.paymentStatus = 'unpaid';
      stripe.expired = false;
    });

    it('a pending session is asked about at most once per CHECK_SUCCESS_CACHE_MS; concurrent checks share the call', async () => {
      const userId = newUserId();
      const { sessionId } = (await createCheckout(billing, userId, 2)).body;
      const answers = await Promise.all(Array.from({ length: 5 }, () => check(userId, sessionId)));
      for (let index = 0; index < 3; index += 1) answers.push(await check(userId, sessionId));
      expect(answers.map((answer) => answer.body)).toEqual(Array(8).fill({ paid: false, credits: 0 }));
      expect(asked(sessionId)).toBe(1);

      // Paid meanwhile: the next check after the cache asks again, credits once, and never asks again.
      stripe.paymentStatus = 'paid';
      pastTheCache();
      expect((await check(userId, sessionId)).body).toEqual({ paid: true, credits: 50 });
      expect((await check(userId, sessionId)).body).toEqual({ paid: true, credits: 50 });
      expect(asked(sessionId)).toBe(2);
    });

    it('an expired session is asked about once for good', async () => {
      const userId = newUserId();
      const { sessionId } = (await createCheckout(billing, userId, 2)).body;
      stripe.expired = true;
      expect((await check(userId, sessionId)).body).toEqual({ paid: false, credits: 0 });
      pastTheCache();
      expect((await check(userId, sessionId)).body).toEqual({ paid: false, credits: 0 });
      expect(asked(sessionId)).toBe(1);
    });
  });
});
