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
  it('writes no session cookie of its own at sign-in: the API sets it, HttpOnly', async () => {
    const { fetchImpl } = fakeFetch({ 'POST /auth/google': { body: { user: { name: 'Ada' } } } });
    const client = createPlatformClient({ apiBaseUrl: 'https://api.productgen.test', fetchImpl });
    const setter = jest.spyOn(Document.prototype, 'cookie', 'set');

    await client.signIn({ credential: 'token' });

    const writes = setter.mock.calls.map(([value]) => value);
    setter.mockRestore();
    expect(writes.filter((value) => value.startsWith(`${SESSION_KEY_NAME}=`))).toEqual([]);
    expect(client.isSignedIn()).toBe(true);
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
});
