import { randomUUID } from 'node:crypto';
import type { Model } from 'mongoose';
import { topics } from '@productgen/contracts';
import { pollUntil } from '@productgen/test-kit';
import { emptyImage } from '../src/data/generation-repository';
import { generationQueues } from '../src/messaging/render-worker';
import type { GenerationDocument } from '../src/data/schemas';
import { GIVEN_UP_MESSAGE, NOTHING_CHARGED_MESSAGE } from '../src/domain/sweep';
import { planVariations } from '@productgen/studio-engine';
import { newUserId, Stack } from './helpers';

// The sweeper on the embedded MongoDB and the in-process bus, against the billing stand-in (the billing contract
// suite runs the same calls against the real billing). Nothing renders here: the API replicas run without workers,
// so the tests see exactly what the sweepers did.
jest.setTimeout(180_000);

const stack = new Stack();
let first: Awaited<ReturnType<Stack['service']>>;
let second: Awaited<ReturnType<Stack['service']>>;
let generations: Model<GenerationDocument>;
const published: string[] = [];
let onPublished = () => undefined as void;

/** Resolves once `count` render jobs have reached the test's own queue (the bus delivers after publish returns). */
function jobsSeen(count: number): Promise<void> {
  return new Promise((resolve) => {
    onPublished = () => {
      if (published.length >= count) resolve();
    };
    onPublished();
  });
}

const longAgo = () => new Date(Date.now() - 60 * 60_000);

/** A generation as a creation leaves it, at `stage`, due for the sweeper. */
async function stuckGeneration(
  userId: string,
  stage: GenerationDocument['stage'],
  extra: Partial<GenerationDocument> = {},
): Promise<string> {
  const uuid = randomUUID();
  const variations = planVariations({ generationUuid: uuid, category: 'kitchen', count: 2 }).map((variation) => ({
    index: variation.index,
    recipe: variation.recipe,
    preset_id: variation.presetId,
  }));
  await generations.create({
    uuid,
    user_id: userId,
    stage,
    category: 'kitchen',
    object: 'mug',
    original_key: `generations/${uuid}/original.jpg`,
    original_content_type: 'image/jpeg',
    num_images: 2,
    variations,
    sweep_after: longAgo(),
    ...extra,
  });
  return uuid;
}

beforeAll(async () => {
  await stack.start();
  // Two API replicas on one database and broker, no render worker, a sweep only when a test asks for it.
  const env = { GENERATION_WORKER: 'off', MAX_REQUEUES: '1' };
  first = await stack.service({ env });
  second = await stack.service({ env });
  generations = first.connection.model<GenerationDocument>('Generation');
  await stack.bus().subscribe('sweeper-test.jobs', [topics.generationRequested], async (message) => {
    published.push((message.payload as { generation_uuid: string }).generation_uuid);
    onPublished();
  });
}, 180_000);

afterAll(() => stack.stop());

const stateOf = (uuid: string) => generations.findOne({ uuid }).lean<GenerationDocument>().orFail();

test('two sweepers at once: each stuck creation is settled once (queued when charged, failed when not)', async () => {
  const userId = newUserId();
  stack.billing.account(userId, 10);
  const charged: string[] = [];
  const uncharged: string[] = [];
  for (let index = 0; index < 3; index += 1) {
    const uuid = await stuckGeneration(userId, 'reserving');
    await fetch(`${stack.billing.url}/internal/credits/reserve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userId, generationUuid: uuid, count: 2 }),
    });
    charged.push(uuid);
    uncharged.push(await stuckGeneration(userId, 'reserving'));
  }
  expect(stack.billing.credits(userId)).toBe(4);

  const reports = await Promise.all([first.sweeper.sweep(), second.sweeper.sweep()]);
  const total = (step: 'queue' | 'fail') => reports.reduce((sum, report) => sum + (report.reserving[step] ?? 0), 0);
  expect({ queued: total('queue'), failed: total('fail') }).toEqual({ queued: 3, failed: 3 });

  for (const uuid of charged) {
    const generation = await stateOf(uuid);
    expect(generation).toMatchObject({ stage: 'pending', watermark: true, error: null });
    expect(generation.images.map((image) => image.index)).toEqual([0, 1]);
    expect(generation.job_published_at).not.toBeNull();
  }
  for (const uuid of uncharged) {
    expect(await stateOf(uuid)).toMatchObject({ stage: 'failed', error: NOTHING_CHARGED_MESSAGE, images: [] });
  }
  // One render job per charged creation: no sweeper published one another had taken.
  await jobsSeen(3);
  expect([...published].sort()).toEqual([...charged].sort());
  expect(stack.billing.credits(userId)).toBe(4);
});

test('a render job whose deliveries ran out is queued again while re-queues are left, then given up', async () => {
  const userId = newUserId();
  stack.billing.account(userId, 10);
  // Rendering, not stuck: only its dead letters bring the sweeper to it.
  const uuid = await stuckGeneration(userId, 'processing', {
    images: [emptyImage(0, true), emptyImage(1, true)],
    started_at: new Date(),
    job_published_at: new Date(),
    sweep_after: new Date(Date.now() + 60 * 60_000),
  });
  await fetch(`${stack.billing.url}/internal/credits/reserve`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userId, generationUuid: uuid, count: 2 }),
  });
  // A render queue whose consumer never finishes a job, as workers killed in the middle of each delivery would.
  let deliveries = 0;
  const consumer = await stack.bus().subscribe(
    generationQueues.render,
    [topics.generationRequested],
    async () => {
      deliveries += 1;
      throw new Error('the worker stopped');
    },
    { maxDeliveries: 5, retryDelaysMs: [0] },
  );
  try {
    const sweepUntilDeadLettered = () =>
      pollUntil(
        'the render job to be dead-lettered',
        () => first.sweeper.sweep(),
        (report) => report.deadLetters > 0,
      );

    await first.creation.publishJob(await stateOf(uuid));
    // Its 5 deliveries spent: queued again (MAX_REQUEUES=1), a new job with deliveries of its own.
    expect((await sweepUntilDeadLettered()).stuck).toEqual({ requeue: 1 });
    expect(await stateOf(uuid)).toMatchObject({ stage: 'processing', requeues: 1 });
    // Spent again, re-queues too: given up, its credits back.
    expect((await sweepUntilDeadLettered()).stuck).toEqual({ 'give-up': 1 });
    expect(deliveries).toBe(10);
    expect(await stateOf(uuid)).toMatchObject({
      stage: 'failed',
      error: `The images could not be made and your credits were given back. ${GIVEN_UP_MESSAGE}`,
    });
    expect(stack.billing.credits(userId)).toBe(10);
  } finally {
    await consumer.close();
  }
});

test('a stuck render is queued again with the same job, then given up: its credits come back and it fails', async () => {
  const userId = newUserId();
  stack.billing.account(userId, 10);
  const uuid = await stuckGeneration(userId, 'processing', {
    images: [emptyImage(0, true), emptyImage(1, true)],
    started_at: longAgo(),
    job_published_at: longAgo(),
  });
  await fetch(`${stack.billing.url}/internal/credits/reserve`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userId, generationUuid: uuid, count: 2 }),
  });
  const before = published.length;

  expect((await first.sweeper.sweep()).stuck).toEqual({ requeue: 1 });
  await jobsSeen(before + 1);
  expect(published.at(-1)).toBe(uuid);
  const requeued = await stateOf(uuid);
  expect(requeued).toMatchObject({ stage: 'processing', requeues: 1 });
  // Not due again until STUCK_AFTER_MS without progress.
  expect(requeued.sweep_after!.getTime()).toBeGreaterThan(Date.now() + 60_000);
  expect((await second.sweeper.sweep()).stuck).toEqual({});

  // Still no progress, re-queues spent (MAX_REQUEUES=1): given up.
  await generations.updateOne({ uuid }, { $set: { sweep_after: longAgo() } });
  expect((await second.sweeper.sweep()).stuck).toEqual({ 'give-up': 1 });
  const failed = await stateOf(uuid);
  expect(failed).toMatchObject({
    stage: 'failed',
    error: `The images could not be made and your credits were given back. ${GIVEN_UP_MESSAGE}`,
    sweep_after: null,
  });
  expect(failed.images.every((image) => image.error === GIVEN_UP_MESSAGE && image.refunded)).toBe(true);
  expect(stack.billing.credits(userId)).toBe(10);
  expect(await first.sweeper.sweep()).toEqual({ deadLetters: 0, reserving: {}, stuck: {}, expired: 0, errors: 0 });
});
