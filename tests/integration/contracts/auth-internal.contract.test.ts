import { authInternalRoutes, internalUserSchema } from '@productgen/contracts';
import { createInternalApiClient } from '@productgen/service-kit';
import { LoopbackServers } from '@productgen/test-kit';
import { KNOWN_SESSIONS, startAuthFixture } from '@productgen/test-kit/auth-fixture';
import { signInDev, startTestService, type TestService } from '@productgen/test-kit/auth-service';
import { refusal } from '@productgen/test-kit/internal-api';
import { MongoFixture } from '@productgen/test-kit/mongo-fixture';

// One contract, two implementations: auth's internal routes as the real auth service answers them, and as test-kit's
// stand-in answers them, which the gateway tests (session check) and the generation tests (the user) run against.
jest.setTimeout(120_000);

/** A running implementation of the session check. */
interface SessionCheck {
  url: string;
  /** A valid session key and its user. */
  session(): Promise<{ key: string; userId: string }>;
  /** Ends the session as POST /auth/logout does. */
  logout(key: string): Promise<void>;
  close(): Promise<void>;
}

/** A running implementation of the internal user. */
interface UserLookup {
  url: string;
  /** A user auth knows. */
  user(): Promise<string>;
  close(): Promise<void>;
}

interface Implementation<Running> {
  name: string;
  start(): Promise<Running>;
}

let counter = 0;
const nextEmail = () => `contract-${process.pid}-${(counter += 1)}@example.com`;

/** The real auth service on the embedded database, listening on a loopback port. */
async function startRealAuth(): Promise<{ auth: TestService; url: string; close(): Promise<void> }> {
  const mongo = new MongoFixture();
  await mongo.start();
  const auth = await startTestService(mongo);
  const servers = new LoopbackServers();
  return {
    auth,
    url: await servers.listen(auth.service.app),
    close: async () => {
      await servers.close();
      await auth.close();
      await mongo.stop();
    },
  };
}

const realSessionCheck: Implementation<SessionCheck> = {
  name: 'auth service',
  async start() {
    const real = await startRealAuth();
    return {
      url: real.url,
      session: async () => {
        const signedIn = await signInDev(real.auth, nextEmail());
        return { key: signedIn.session_key, userId: signedIn.user.id };
      },
      logout: async (key) => {
        const answer = await fetch(`${real.url}/auth/logout`, { method: 'POST', headers: { 'x-session-key': key } });
        expect(answer.status).toBe(200);
      },
      close: real.close,
    };
  },
};

const sessionCheckStandIn: Implementation<SessionCheck> = {
  name: 'stand-in (test-kit)',
  async start() {
    const fixture = await startAuthFixture();
    const sessions = Object.entries(KNOWN_SESSIONS);
    return {
      url: fixture.url,
      session: async () => {
        const [key, userId] = sessions[counter++ % sessions.length] ?? [];
        if (!key || !userId) throw new Error('the gateway stand-in knows no sessions');
        return { key, userId };
      },
      logout: async (key) => {
        const answer = await fetch(`${fixture.url}/auth/logout`, { method: 'POST', headers: { 'x-session-key': key } });
        expect(answer.status).toBe(200);
      },
      close: () => fixture.close(),
    };
  },
};

const realUserLookup: Implementation<UserLookup> = {
  name: 'auth service',
  async start() {
    const real = await startRealAuth();
    return {
      url: real.url,
      user: async () => (await signInDev(real.auth, nextEmail())).user.id,
      close: real.close,
    };
  },
};

const userLookupStandIn: Implementation<UserLookup> = {
  name: 'stand-in (test-kit)',
  async start() {
    const fixture = await startAuthFixture();
    return {
      url: fixture.url,
      user: async () => {
        const userId = `user${(counter += 1)}x${process.pid}`;
        fixture.brandColors.set(userId, []);
        return userId;
      },
      close: () => fixture.close(),
    };
  },
};

describe.each([sessionCheckStandIn, realSessionCheck])('auth internal session check: $name', (implementation) => {
  let running: SessionCheck;
  const client = () => createInternalApiClient(authInternalRoutes, { baseUrl: running.url, target: 'auth' });

  beforeAll(async () => {
    running = await implementation.start();
  });
  afterAll(async () => {
    await running?.close();
  });

  test("a valid key answers its user's id", async () => {
    const { key, userId } = await running.session();
    expect(await client().verifySession({ headers: { 'x-session-key': key } })).toEqual({ userId });
  });

  test('an unknown key and no key are 401 Unauthorized, never a 400', async () => {
    const unauthorized = { status: 401, message: 'Unauthorized' };
    expect(await refusal(client().verifySession({ headers: { 'x-session-key': 'no-such-key' } }))).toEqual(
      unauthorized,
    );
    expect(await refusal(client().verifySession({ headers: {} }))).toEqual(unauthorized);
  });

  test('a key is refused once its session is logged out', async () => {
    const { key } = await running.session();
    await running.logout(key);
    expect(await refusal(client().verifySession({ headers: { 'x-session-key': key } }))).toEqual({
      status: 401,
      message: 'Unauthorized',
    });
  });
});

describe.each([userLookupStandIn, realUserLookup])('auth internal user: $name', (implementation) => {
  let running: UserLookup;
  const client = () => createInternalApiClient(authInternalRoutes, { baseUrl: running.url, target: 'auth' });

  beforeAll(async () => {
    running = await implementation.start();
  });
  afterAll(async () => {
    await running?.close();
  });

  test('a known user answers the whole internal user (checked by the contract schema)', async () => {
    const userId = await running.user();
    const user = await client().getUser({ params: { id: userId } });
    expect(internalUserSchema.parse(user).id).toBe(userId);
    expect(Array.isArray(user.brand_colors)).toBe(true);
  });

  test('an unknown user is a 404 "User not found"', async () => {
    expect(await refusal(client().getUser({ params: { id: '0123456789abcdef01234567' } }))).toEqual({
      status: 404,
      message: 'User not found',
    });
  });
});
