import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { sumOfEntries } from '../src';
import {
  MongoFixture,
  balanceOf,
  call,
  entriesOf,
  giveBack,
  newUserId,
  reserve,
  signedUpUser,
  startTestService,
  topUp,
  type TestService,
} from './helpers';

jest.setTimeout(300_000);

const mongo = new MongoFixture();
let billing: TestService;

beforeAll(async () => {
  await mongo.start();
  // The abuse limit is not what this test is about.
  billing = await startTestService(mongo, { env: { REFUND_LIMIT_PER_WINDOW: '100000' } });
});

afterAll(async () => {
  await billing?.close();
  await mongo.stop();
});

const USERS = 2;
const GENERATIONS = 4;
const SESSIONS = 3;

type Command =
  | { kind: 'purchase'; session: number }
  | { kind: 'reserve'; generation: number }
  | { kind: 'giveBack'; generation: number; index: number }
  | { kind: 'refund'; generation: number; index: number };

const commandArbitrary: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constant('purchase' as const), session: fc.nat(SESSIONS - 1) }),
  fc.record({ kind: fc.constant('reserve' as const), generation: fc.nat(GENERATIONS - 1) }),
  fc.record({ kind: fc.constant('giveBack' as const), generation: fc.nat(GENERATIONS - 1), index: fc.nat(3) }),
  fc.record({ kind: fc.constant('refund' as const), generation: fc.nat(GENERATIONS - 1), index: fc.nat(3) }),
);

/** Each run gets its own users, generations and sessions; ownership is fixed by index. */
function world() {
  const users = Array.from({ length: USERS }, () => newUserId());
  const generations = Array.from({ length: GENERATIONS }, () => randomUUID());
  const sessions = Array.from({ length: SESSIONS }, () => `cs_prop_${randomBytes(8).toString('hex')}`);
  return {
    users,
    generations,
    sessions,
    ownerOfGeneration: (generation: number) => users[generation % USERS]!,
    ownerOfSession: (session: number) => users[session % USERS]!,
    /** Fixed per generation: a reservation is always retried with the same count. */
    countOf: (generation: number) => (generation % 3) + 1,
  };
}

async function run(command: Command, w: ReturnType<typeof world>): Promise<void> {
  switch (command.kind) {
    case 'purchase':
      await topUp(billing, w.ownerOfSession(command.session), 1, w.sessions[command.session]);
      return;
    case 'reserve': {
      const answer = await reserve(
        billing,
        w.ownerOfGeneration(command.generation),
        w.countOf(command.generation),
        w.generations[command.generation],
      );
      expect([200, 402]).toContain(answer.status);
      return;
    }
    case 'giveBack': {
      const answer = await giveBack(
        billing,
        w.ownerOfGeneration(command.generation),
        w.generations[command.generation]!,
        command.index,
      );
      expect(answer.status).toBe(200);
      return;
    }
    case 'refund': {
      const answer = await call(billing, 'POST', '/support/refund', {
        userId: w.ownerOfGeneration(command.generation),
        body: { generationUuid: w.generations[command.generation], imageIndex: command.index, refundReason: 'bad' },
      });
      expect([200, 404, 409]).toContain(answer.status);
      return;
    }
  }
}

describe('ledger invariants under random interleavings', () => {
  it('once every operation has completed: balance == sum of entries, never negative, every source at most once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(commandArbitrary, { minLength: 1, maxLength: 6 }), { maxLength: 6 }),
        async (batches) => {
          const w = world();
          // Each user's bonus must have completed (published after its entry is written), not merely moved the
          // balance: the invariant below holds once every operation has completed.
          await Promise.all(w.users.map((userId) => signedUpUser(billing, userId)));
          // Commands of one batch run concurrently (duplicates included); batches run one after another.
          for (const batch of batches) await Promise.all(batch.map((command) => run(command, w)));

          for (const userId of w.users) {
            const entries = await entriesOf(billing, userId);
            const balance = await balanceOf(billing, userId);
            expect(balance).toBe(sumOfEntries(entries));
            expect(balance).toBeGreaterThanOrEqual(0);
            for (const entry of entries) expect(entry.balance_after).toBeGreaterThanOrEqual(0);
            const refs = entries.map((entry) => entry.source_ref);
            expect(new Set(refs).size).toBe(refs.length);
            expect(refs.filter((ref) => ref.startsWith('signup:'))).toEqual([`signup:${userId}`]);
            // A refund only ever follows a charge of the same image.
            for (const ref of refs.filter((candidate) => candidate.startsWith('refund:'))) {
              expect(refs).toContain(ref.replace(/^refund:/, 'gen:'));
            }
            // Reservations are all or nothing.
            w.generations.forEach((uuid, generation) => {
              const charged = refs.filter((ref) => ref.startsWith(`gen:${uuid}:`)).length;
              expect([0, w.countOf(generation)]).toContain(charged);
            });
          }
          const paidSessions = new Set(
            batches.flat().flatMap((command) => (command.kind === 'purchase' ? [w.sessions[command.session]] : [])),
          );
          const paymentEntries = (await Promise.all(w.users.map((userId) => entriesOf(billing, userId))))
            .flat()
            .filter((entry) => entry.source_ref.startsWith('payment:'));
          expect(paymentEntries).toHaveLength(paidSessions.size);
        },
      ),
      { numRuns: 25 },
    );
  });
});
