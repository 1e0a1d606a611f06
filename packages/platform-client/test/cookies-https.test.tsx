/**
 * @jest-environment-options {"url": "https://app.productgen.test/dashboard"}
 */
import { createPlatformClient, SESSION_KEY_NAME } from '@productgen/platform-client';
import { fakeFetch } from '@productgen/platform-client/test-support';

const DAY_MS = 24 * 60 * 60 * 1000;

function cookieWrites(run: () => unknown): string[] {
  const setter = jest.spyOn(Document.prototype, 'cookie', 'set');
  try {
    run();
    return setter.mock.calls.map(([value]) => value);
  } finally {
    setter.mockRestore();
  }
}

function expiryOf(write: string): number {
  const expires = /expires=([^;]+)/.exec(write)?.[1];
  if (!expires) throw new Error(`no expires attribute in ${write}`);
  return Date.parse(expires);
}

describe('cookie attributes on an https page', () => {
  it('writes the session cookie for path / with the configured lifetime, SameSite=Lax and Secure', async () => {
    const { fetchImpl } = fakeFetch({ 'POST /auth/google': { body: { session_key: 'abc' } } });
    const client = createPlatformClient({ apiBaseUrl: 'https://api.productgen.test', fetchImpl, cookieDays: 7 });
    const setter = jest.spyOn(Document.prototype, 'cookie', 'set');

    await client.signIn({ credential: 'token' });

    const write = setter.mock.calls.map(([value]) => value).find((value) => value.startsWith(`${SESSION_KEY_NAME}=`));
    setter.mockRestore();
    expect(write).toBeDefined();
    expect(write).toMatch(/; path=\//);
    expect(write).toMatch(/; sameSite=Lax/i);
    expect(write).toMatch(/; secure/i);
    expect(Math.abs(expiryOf(write!) - (Date.now() + 7 * DAY_MS))).toBeLessThan(60_000);
  });

  it('keeps the referral cookie for 30 days on path /', () => {
    const client = createPlatformClient({
      apiBaseUrl: 'https://api.productgen.test',
      fetchImpl: fakeFetch({}).fetchImpl,
    });

    const [write] = cookieWrites(() => client.captureReferralFromUrl('https://app.productgen.test/?ref=R1'));

    expect(write).toMatch(/^productgen_ref_code=R1; path=\//);
    expect(Math.abs(expiryOf(write!) - (Date.now() + 30 * DAY_MS))).toBeLessThan(60_000);
  });

  it('refuses a non-positive cookie lifetime', () => {
    expect(() => createPlatformClient({ apiBaseUrl: 'https://api.productgen.test', cookieDays: 0 })).toThrow(
      'cookieDays must be a positive number, got 0',
    );
  });
});
