import { createServiceIdentity } from '@productgen/service-kit';
import { pollUntil, TEST_SERVICE_AUTH_SECRET } from '@productgen/test-kit';
import { SessionCache } from '../src/domain/session';
import { createSessionVerifier } from '../src/session-verifier';
import { silentLogger } from './helpers';

/** The session check behind its cache, with auth answering from a table and the cache's clock in the test's hand. */
function verifierWith(answers: Map<string, string>) {
  let now = 1_000_000;
  const asked: string[] = [];
  const cache = new SessionCache({ ttlMs: 5000, maxEntries: 100, revocationWindowMs: 2000, now: () => now });
  const verifier = createSessionVerifier({
    authUrl: 'http://auth.invalid',
    timeoutMs: 1000,
    logger: silentLogger,
    identity: createServiceIdentity(TEST_SERVICE_AUTH_SECRET, 'gateway'),
    cache,
    fetchImpl: async (_input, init) => {
      const key = new Headers(init?.headers).get('x-session-key') ?? '';
      asked.push(key);
      const userId = answers.get(key);
      return userId
        ? Response.json({ userId })
        : Response.json({ code: 401, error: 'Invalid or expired session' }, { status: 401 });
    },
  });
  return { verifier, cache, asked, advance: (ms: number) => void (now += ms) };
}

describe('session check renewed before its cache entry ends', () => {
  it('answers from the cache and asks auth once in the background half-way through the entry', async () => {
    const { verifier, cache, asked, advance } = verifierWith(new Map([['key-alice', 'user-alice']]));
    expect(await verifier.verify('key-alice')).toBe('user-alice');
    advance(1000);
    expect(await verifier.verify('key-alice')).toBe('user-alice');
    expect(asked).toHaveLength(1);
    advance(2000); // 3 s of 5: past half-way
    const answers = await Promise.all([verifier.verify('key-alice'), verifier.verify('key-alice')]);
    expect(answers).toEqual(['user-alice', 'user-alice']);
    await pollUntil(
      'the renewed entry',
      async () => cache.isHalfway('key-alice'),
      (halfway) => !halfway,
    );
    expect(asked).toHaveLength(2);
    // Renewed: 4 s after the renewal (7 s after the first check) the key is still answered without asking again.
    advance(4000);
    expect(await verifier.verify('key-alice')).toBe('user-alice');
    expect(asked).toHaveLength(2);
  });

  it('forgets a key at once when the background check hears no from auth', async () => {
    const answers = new Map([['key-bob', 'user-bob']]);
    const { verifier, cache, asked, advance } = verifierWith(answers);
    expect(await verifier.verify('key-bob')).toBe('user-bob');
    answers.delete('key-bob'); // revoked at auth without an announcement reaching this replica
    advance(3000);
    expect(await verifier.verify('key-bob')).toBe('user-bob'); // still inside its entry's TTL, as before
    await pollUntil(
      'the key forgotten',
      async () => cache.get('key-bob'),
      (userId) => userId === undefined,
    );
    expect(asked).toHaveLength(2);
    expect(await verifier.verify('key-bob')).toBeUndefined();
  });
});
