import { createHttpApp, redactSensitiveQuery } from '@productgen/service-kit';
import { listen, memoryLogger } from './helpers';

// Page addresses reach the logs (request lines, Referer headers, page-view events): a Stripe checkout's session_id,
// a referral code or a token in them must not.

describe('redactSensitiveQuery', () => {
  it.each([
    ['/dashboard?payment=success&session_id=cs_live_a1', '/dashboard?payment=success&session_id=redacted'],
    ['/?ref=ALICE42', '/?ref=redacted'],
    ['/login?referral_code=ALICE42&utm_source=mail', '/login?referral_code=redacted&utm_source=mail'],
    [
      'https://shop.example/a?token=t0k&id_token=ey.j&x=1',
      'https://shop.example/a?token=redacted&id_token=redacted&x=1',
    ],
    ['/cb#access_token=ya29.secret&expires_in=3599', '/cb#access_token=redacted&expires_in=3599'],
    ['/dl?session_key=k3y&ref=a&ref=b', '/dl?session_key=redacted&ref=redacted'],
  ])('%s → %s', (url, expected) => {
    expect(redactSensitiveQuery(url)).toBe(expected);
  });

  it('leaves an address without sensitive parameters exactly as it was', () => {
    for (const url of [
      '/pricing',
      '/productgen#single',
      '/image-resizer?w=800&h=600%20px',
      'https://a.example/?q=a+b',
    ]) {
      expect(redactSensitiveQuery(url)).toBe(url);
    }
  });
});

describe('request logs', () => {
  it('carry neither the session id nor the referral code of the URL, its query or the Referer', async () => {
    const logs = memoryLogger('redaction-test');
    const app = createHttpApp({ name: 'redaction-test', logger: logs.logger });
    app.get('/dashboard', (_req, res) => {
      res.send('ok');
    });
    const server = await listen(app.finalize());
    try {
      const response = await fetch(
        `${server.url}/dashboard?payment=success&session_id=cs_live_SECRET1&ref=REF_SECRET2`,
        {
          headers: { referer: 'http://localhost:3000/?ref=REF_SECRET3', 'x-request-id': 'redaction-1' },
        },
      );
      expect(response.status).toBe(200);
      const line = logs.lines().find((entry) => (entry.req as { id?: string } | undefined)?.id === 'redaction-1');
      expect(line).toMatchObject({
        req: {
          url: '/dashboard?payment=success&session_id=redacted&ref=redacted',
          headers: { referer: 'http://localhost:3000/?ref=redacted' },
        },
      });
      expect(JSON.stringify(logs.lines())).not.toMatch(/SECRET/);
    } finally {
      await server.close();
    }
  });
});
