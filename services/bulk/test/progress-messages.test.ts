import { randomUUID } from 'node:crypto';
import { createLogger } from '@productgen/service-kit';
import { MongoFixture } from '@productgen/test-kit/mongo-fixture';
import type { GenerationClient } from '../src/clients/generation';
import { JobRepository, type GenerationEvent } from '../src/data/job-repository';
import { createModels } from '../src/data/models';
import { ProgressTracker } from '../src/progress';

// Bulk's progress from generation's messages on the real embedded MongoDB: a message redelivered, arriving out of
// order or naming another user's job changes nothing it should not, and a refresh computed from an older read never
// writes over a newer one. Generation is never asked (its client throws).
jest.setTimeout(60_000);

describe('batch progress from generation messages', () => {
  const mongo = new MongoFixture('bulk-progress');
  let jobs: JobRepository;
  let progress: ProgressTracker;
  const neverAsked = {
    api: new Proxy({}, { get: () => () => Promise.reject(new Error('progress must not ask generation')) }),
  } as unknown as GenerationClient;

  beforeAll(async () => {
    await mongo.start();
    jobs = new JobRepository((await createModels(await mongo.connect())).jobs);
    progress = new ProgressTracker({
      jobs,
      generation: neverAsked,
      logger: createLogger({ service: 'bulk-progress-test', level: 'silent' }),
      now: () => new Date(),
      refreshIntervalMs: 10,
    });
  });
  afterAll(() => mongo.stop());

  /** A job whose two products are with generation. */
  async function trackedJob(): Promise<{ uuid: string; generations: [string, string] }> {
    const uuid = randomUUID();
    const generations: [string, string] = [randomUUID(), randomUUID()];
    await jobs.create({
      uuid,
      userId: 'owner',
      imagesPerProduct: 2,
      presets: [],
      checkUncertain: false,
      uploadKey: `uploads/${uuid}.zip`,
      products: generations.map((generation_uuid, index) => ({
        index,
        entry_index: index,
        name: `p${index}.jpg`,
        generation_uuid,
      })),
    });
    const reserved = await jobs.markReserved(uuid, false, new Date());
    for (const index of [0, 1]) await jobs.setProductState(uuid, index, 'handed', null);
    await jobs.markHandedOver(uuid, reserved!.lease_holder!);
    return { uuid, generations };
  }

  const event = (uuid: string, generationUuid: string, change: Partial<GenerationEvent>): GenerationEvent => ({
    jobUuid: uuid,
    userId: 'owner',
    generationUuid,
    images: [],
    outcome: null,
    ...change,
  });

  async function apply(...events: GenerationEvent[]) {
    for (const one of events) if (await progress.record(one)) await progress.refreshByUuid(one.jobUuid);
    return (await jobs.findByUuid(events[0]!.jobUuid))!;
  }

  test('redelivered and out-of-order messages end in the same progress as the messages in order', async () => {
    const inOrder = await trackedJob();
    const shuffled = await trackedJob();
    const messages = (job: { uuid: string; generations: [string, string] }) => [
      event(job.uuid, job.generations[0], { images: [0] }),
      event(job.uuid, job.generations[0], { images: [1] }),
      event(job.uuid, job.generations[0], { images: [0, 1], outcome: 'completed' }),
      event(job.uuid, job.generations[1], { outcome: 'failed' }),
    ];
    const expected = await apply(...messages(inOrder));
    const [a, b, completed, failed] = messages(shuffled);
    const got = await apply(completed!, failed!, b!, a!, completed!, b!);
    for (const stored of [expected, got]) {
      expect(stored).toMatchObject({
        stage: 'completed',
        generations_done: 2,
        counts: { done: 1, waiting_for_check: 0, rendering: 0, failed: 1 },
      });
    }
    expect(got.thumbnails).toEqual(
      expected.thumbnails.map((url) => url.replace(inOrder.generations[0], shuffled.generations[0])),
    );
    expect(got.thumbnails).toEqual([
      `/download/${shuffled.generations[0]}/image/0?v=final`,
      `/download/${shuffled.generations[0]}/image/1?v=final`,
    ]);
  });

  test("a message naming another user's job is not recorded", async () => {
    const job = await trackedJob();
    expect(
      await progress.record({ ...event(job.uuid, job.generations[0], { outcome: 'completed' }), userId: 'x' }),
    ).toBe(false);
    expect((await jobs.findByUuid(job.uuid))!.generation_progress ?? {}).toEqual({});
  });

  test('a refresh computed from an older read does not write; it reads again and records the newer state', async () => {
    const job = await trackedJob();
    const stale = (await jobs.findByUuid(job.uuid))!;
    await progress.record(event(job.uuid, job.generations[0], { images: [0, 1], outcome: 'completed' }));
    // The older read says nothing is done: writing it would be wrong, so it is refused.
    expect(
      await jobs.recordProgress(job.uuid, stale.progress_rev ?? 0, {
        generationsDone: 0,
        counts: { done: 0, waiting_for_check: 0, rendering: 2, failed: 0 },
        thumbnails: [],
      }),
    ).toBe(false);
    const refreshed = await progress.refresh(stale);
    expect(refreshed.counts).toEqual({ done: 1, waiting_for_check: 0, rendering: 1, failed: 0 });
  });
});
