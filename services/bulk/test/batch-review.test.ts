import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  billingInternalRoutes,
  generationInternalRoutes,
  type BulkChecks,
  type BulkGeneration,
  type BulkJob,
} from '@productgen/contracts';
import { AppError, serveRoute } from '@productgen/service-kit';
import { makeZip, readZipEntries } from '@productgen/test-kit/zips';
import { JOB_NOT_FOUND_MESSAGE, NOT_WAITING_MESSAGE, UNCHECKED_RENDER_AFTER_MS } from '../src/batch-review';
import type { JobDocument } from '../src/data/models';
import { NOT_INCLUDED_FILENAME } from '../src/domain/job';
import { announceCompleted, startBulkTestBed, stubService, uploadBatch, type BulkTestBed } from './test-bed';
import { pollUntil, serviceCallHeaders } from '@productgen/test-kit';

// Batch review through bulk's API on the real embedded MongoDB and S3: products generation holds ("Needs your
// check") wait, the others render; the seller lists them, confirms, fixes or removes each (another user's job 404,
// a product not waiting 409, bad masks 400, concurrent confirmations one render); unchecked ones render after 7 days;
// the job counts where its products are and Download All says what it leaves out. Generation is stood in by its
// internal routes: it holds every product whose file name has "unsure" in it when the batch asks, and renders a
// released product at once (one image).

const PHOTOS = path.resolve(__dirname, '../../../../shared/photos/test');
const PHOTO = 'fitness/boxing-gloves.jpg';
const OWNER = 'user-review-owner';
const STRANGER = 'user-review-stranger';
const PNG_MASK = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(16)]);
jest.setTimeout(120_000);

interface StoodInGeneration {
  bulkJob: string;
  filename: string;
  holdAsked: boolean;
  state: 'held' | 'rendered' | 'dropped';
  releases: Array<{ mask?: string; object?: string; category?: string }>;
  drops: number;
}

describe('batch review API', () => {
  let bed: BulkTestBed;
  let clock = new Date('2026-11-01T10:00:00Z');
  const generations = new Map<string, StoodInGeneration>();
  const reservations: string[] = [];
  const givenBack: string[] = [];
  const redone: Array<{ from: string; to: string; category?: string }> = [];
  const isPng = (base64: string) => Buffer.from(base64, 'base64').subarray(0, 8).equals(PNG_MASK.subarray(0, 8));

  /** Where the stand-in stores a rendered product's image, in generation's bucket as bulk reads it. */
  const imageKey = (uuid: string) => `images/${uuid}/0.jpg`;

  /**
   * A product renders (the stand-in renders at once, before it answers): its image is stored, and generation's
   * message sent, from which bulk's progress comes.
   */
  async function rendered(uuid: string, userId: string): Promise<void> {
    const { bulkJob } = generations.get(uuid)!;
    const image = Buffer.from(`image 0 of ${uuid}`);
    await bed.generationImages.putObject(imageKey(uuid), image, { contentType: 'image/jpeg', size: image.length });
    void announceCompleted(bed.bus, { userId, bulkJobUuid: bulkJob, generationUuid: uuid, images: [0] });
  }

  function view(uuid: string, generation: StoodInGeneration): BulkGeneration {
    const rendered = generation.state === 'rendered';
    return {
      id: uuid,
      generation_uuid: uuid,
      created_at: '2026-11-01T10:00:00.000Z',
      images: rendered
        ? [
            {
              id: `${uuid}-0`,
              input_url: `/download/${uuid}/image/-1`,
              output_url: `/download/${uuid}/image/0`,
              metadata: { fixes_done: [true, true, true] },
            },
          ]
        : [],
      metadata: {
        category: 'fitness',
        num_images: 1,
        status: rendered ? 'completed' : generation.state === 'dropped' ? 'failed' : 'pending',
        error: null,
      },
      original_image_url: `/download/${uuid}/image/-1`,
      original_filename: generation.filename,
      original_extension: 'jpg',
      downloads: {
        original: { bucket: bed.generationImages.bucket, key: `originals/${uuid}.jpg` },
        images: rendered ? [{ index: 0, bucket: bed.generationImages.bucket, key: imageKey(uuid) }] : [],
      },
    };
  }

  beforeAll(async () => {
    bed = await startBulkTestBed({
      name: 'bulk-review',
      now: () => clock,
      billing: stubService((app) => {
        serveRoute(app, billingInternalRoutes.userBilling, () => ({ credits: 100, purchaser: true }));
        serveRoute(app, billingInternalRoutes.reserveBatchCredits, () => ({ balance: 90, watermark: false }));
        serveRoute(app, billingInternalRoutes.reserveCredits, ({ body }) => {
          reservations.push(`${body.generationUuid}:${body.count}`);
          return { balance: 80, watermark: false };
        });
        serveRoute(app, billingInternalRoutes.giveBackCredit, ({ body }) => {
          givenBack.push(`${body.generationUuid}:${body.imageIndex}`);
          return { balance: 81, refunded: true };
        });
      }),
      generation: stubService((app) => {
        serveRoute(app, generationInternalRoutes.createBulkGeneration, async ({ body }) => {
          const known = generations.get(body.generation_uuid);
          const hold = body.hold_uncertain === true && body.original_filename.includes('unsure');
          const generation = known ?? {
            bulkJob: body.bulk_job_uuid,
            filename: body.original_filename,
            holdAsked: body.hold_uncertain === true,
            state: hold ? 'held' : 'rendered',
            releases: [],
            drops: 0,
          };
          generations.set(body.generation_uuid, generation);
          const held = generation.state === 'held';
          if (!held) await rendered(body.generation_uuid, body.userId);
          return {
            generation_uuid: body.generation_uuid,
            outcome: held ? ('held' as const) : ('queued' as const),
            category: 'fitness' as const,
            images: 1,
            error: null,
            object: 'boxing glove',
            check_reasons: held ? (['cutout'] as const).slice() : [],
          };
        });
        serveRoute(app, generationInternalRoutes.releaseHeldBulkGeneration, async ({ params, body }) => {
          const generation = generations.get(params.generationUuid);
          if (!generation) throw AppError.notFound('Generation not found');
          if (body.mask !== undefined && !isPng(body.mask)) throw AppError.badRequest('The mask must be a PNG image.');
          // Held until the answer, so a second release arriving meanwhile would find it still held.
          await new Promise((resolve) => setTimeout(resolve, 50));
          if (generation.state !== 'held') throw AppError.conflict('This product is no longer waiting for your check.');
          generation.releases.push({ mask: body.mask, object: body.object, category: body.category });
          generation.state = 'rendered';
          await rendered(params.generationUuid, body.userId);
          return { generation_uuid: params.generationUuid, outcome: 'queued' as const, images: 1, credits_returned: 0 };
        });
        serveRoute(app, generationInternalRoutes.redoBulkGeneration, async ({ params, body }) => {
          const source = generations.get(params.generationUuid);
          if (!source) throw AppError.notFound('Generation not found');
          if (body.mask !== undefined && !isPng(body.mask)) throw AppError.badRequest('The mask must be a PNG image.');
          redone.push({ from: params.generationUuid, to: body.new_generation_uuid, category: body.category });
          generations.set(body.new_generation_uuid, { ...source, state: 'rendered', releases: [], drops: 0 });
          await rendered(body.new_generation_uuid, body.userId);
          return { generation_uuid: body.new_generation_uuid, outcome: 'queued' as const, images: 1 };
        });
        serveRoute(app, generationInternalRoutes.dropHeldBulkGeneration, ({ params }) => {
          const generation = generations.get(params.generationUuid);
          if (!generation) throw AppError.notFound('Generation not found');
          if (generation.state !== 'held') throw AppError.conflict('This product is no longer waiting for your check.');
          generation.drops += 1;
          generation.state = 'dropped';
          return { generation_uuid: params.generationUuid, credits_returned: 1 };
        });
        serveRoute(app, generationInternalRoutes.listBulkGenerations, ({ params }) => ({
          generations: [...generations]
            .filter(([, generation]) => generation.bulkJob === params.bulkJobUuid)
            .map(([uuid, generation]) => view(uuid, generation)),
        }));
      }),
      // The tests sweep by calling `sweep()`; the service is started for generation's messages.
      env: { PROGRESS_POLL_MS: '3600000' },
    });
    await bed.bulk.start();
  });

  afterAll(() => bed?.close(), 60_000);

  async function startBatch(names: string[], fields: Record<string, string> = {}): Promise<JobDocument> {
    const photo = await readFile(path.join(PHOTOS, PHOTO));
    const zip = await makeZip(names.map((name) => ({ name, data: photo })));
    const answer = await uploadBatch(bed.url, OWNER, zip, { numGenerates: '1', ...fields });
    expect(answer.status).toBe(200);
    return pollUntil(
      'the hand-over to finish',
      async () =>
        (await bed.connection.collection<JobDocument>('bulk_jobs').findOne({ uuid: answer.body.bulk_job_uuid }))!,
      (job) => job.stage !== 'reserving' && job.stage !== 'handing_over',
    );
  }

  async function call<T>(method: string, route: string, userId = OWNER, body?: unknown) {
    const response = await fetch(`${bed.url}${route}`, {
      method,
      headers: { ...serviceCallHeaders(userId), ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, body: (await response.json()) as T & { error?: string } };
  }
  const decide = (job: string, index: number, body: unknown, userId = OWNER) =>
    call<{ state: string; credits_returned: number }>(
      'POST',
      `/image-gen/bulk-job/${job}/checks/${index}`,
      userId,
      body,
    );
  const remove = (job: string, index: number, userId = OWNER) =>
    call<{ state: string; credits_returned: number }>('DELETE', `/image-gen/bulk-job/${job}/products/${index}`, userId);
  const checks = (job: string, userId = OWNER) => call<BulkChecks>('GET', `/image-gen/bulk-job/${job}/checks`, userId);
  const jobView = (job: string) => call<BulkJob>('GET', `/image-gen/bulk-job/${job}`);
  /** The job page once it shows these counts (progress follows generation's messages). */
  const jobShowing = (job: string, counts: BulkJob['counts']) =>
    pollUntil(
      `job ${job} to show ${JSON.stringify(counts)}`,
      () => jobView(job),
      (answer) => JSON.stringify(answer.body.counts) === JSON.stringify(counts),
    );
  /** Until generation's message that the product's current generation settled has been recorded. */
  const productSettled = (job: string, index: number) =>
    pollUntil(
      `product ${index} of job ${job} to settle`,
      async () => (await bed.connection.collection<JobDocument>('bulk_jobs').findOne({ uuid: job }))!,
      (stored) => stored.generation_progress?.[stored.products[index]!.generation_uuid]?.outcome != null,
    );

  test('unsure products wait, the others render; check, fix, remove; the job finishes and Download All says what it lacks', async () => {
    const job = await startBatch(['sure.jpg', 'unsure-a.jpg', 'unsure-b.jpg', 'unsure-c.jpg']);
    expect(job.products.map((product) => product.state)).toEqual([
      'handed',
      'needs_check',
      'needs_check',
      'needs_check',
    ]);
    const uuid = job.uuid;

    const before = await jobShowing(uuid, { done: 1, waiting_for_check: 3, rendering: 0, failed: 0 });
    expect(before.body.status).toBe('processing');
    const listed = await checks(uuid);
    expect(listed.status).toBe(200);
    expect(listed.body.products.map((product) => [product.index, product.filename, product.reasons])).toEqual([
      [1, 'unsure-a.jpg', ['cutout']],
      [2, 'unsure-b.jpg', ['cutout']],
      [3, 'unsure-c.jpg', ['cutout']],
    ]);
    expect(listed.body.products[0]).toMatchObject({
      object: 'boxing glove',
      category: 'fitness',
      original_image_url: `/download/${job.products[1]!.generation_uuid}/image/-1`,
      render_after: new Date(clock.getTime() + UNCHECKED_RENDER_AFTER_MS).toISOString(),
    });

    // Another user's job is as good as missing, on every route.
    for (const answer of [
      await checks(uuid, STRANGER),
      await decide(uuid, 1, { action: 'looks_right' }, STRANGER),
      await remove(uuid, 1, STRANGER),
    ]) {
      expect(answer).toEqual({ status: 404, body: { code: 404, error: JOB_NOT_FOUND_MESSAGE } });
    }
    // A product not waiting (rendered at once) is 409.
    expect(await decide(uuid, 0, { action: 'looks_right' })).toEqual({
      status: 409,
      body: { code: 409, error: NOT_WAITING_MESSAGE },
    });
    // Bad masks: not base64 (refused by the contract), or not a PNG (generation's check): 400, still waiting.
    expect((await decide(uuid, 2, { action: 'fix', mask: '%%% not base64 %%%' })).status).toBe(400);
    const notPng = await decide(uuid, 2, { action: 'fix', mask: Buffer.from('GIF89a').toString('base64') });
    expect(notPng).toEqual({ status: 400, body: { code: 400, error: 'The mask must be a PNG image.' } });
    // A fix must change something, and only a fix may carry changes.
    expect((await decide(uuid, 2, { action: 'fix' })).status).toBe(400);
    expect((await decide(uuid, 2, { action: 'looks_right', category: 'toys' })).status).toBe(400);
    expect((await checks(uuid)).body.products).toHaveLength(3);

    // Two concurrent "Looks right": exactly one render.
    const confirmations = await Promise.all([
      decide(uuid, 1, { action: 'looks_right' }),
      decide(uuid, 1, { action: 'looks_right' }),
    ]);
    expect(confirmations.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(generations.get(job.products[1]!.generation_uuid)!.releases).toHaveLength(1);

    // A fix with the brush's mask and a category renders with them.
    const mask = PNG_MASK.toString('base64');
    const fixed = await decide(uuid, 2, { action: 'fix', mask, category: 'toys' });
    expect(fixed).toEqual({ status: 200, body: { index: 2, state: 'rendering', credits_returned: 0 } });
    expect(generations.get(job.products[2]!.generation_uuid)!.releases).toEqual([
      { mask, object: undefined, category: 'toys' },
    ]);

    // Removed: its credits back at once; a second removal is 409.
    expect(await remove(uuid, 3)).toEqual({ status: 200, body: { index: 3, state: 'removed', credits_returned: 1 } });
    expect((await remove(uuid, 3)).status).toBe(409);
    expect(generations.get(job.products[3]!.generation_uuid)!.drops).toBe(1);

    const after = await jobShowing(uuid, { done: 4, waiting_for_check: 0, rendering: 0, failed: 0 });
    expect(after.body.status).toBe('completed');
    expect((await checks(uuid)).body.products).toEqual([]);

    const download = await fetch(`${bed.url}/download/bulk/${uuid}`, { headers: serviceCallHeaders(OWNER) });
    expect(download.status).toBe(200);
    const entries = readZipEntries(Buffer.from(await download.arrayBuffer()));
    expect(entries.map((entry) => entry.name)).toEqual([
      'sure/1.jpg',
      'unsure-a/1.jpg',
      'unsure-b/1.jpg',
      NOT_INCLUDED_FILENAME,
    ]);
    expect(entries.at(-1)!.data.toString('utf8')).toContain(
      'unsure-c.jpg: removed from the batch by you; its credits were given back',
    );
  });

  test('nothing waits forever: after 7 days unchecked, products render as they are; the option off holds nothing', async () => {
    const job = await startBatch(['sure.jpg', 'unsure-late.jpg']);
    expect(job.products.map((product) => product.state)).toEqual(['handed', 'needs_check']);
    await bed.bulk.sweep();
    expect((await checks(job.uuid)).body.products).toHaveLength(1);

    clock = new Date(clock.getTime() + UNCHECKED_RENDER_AFTER_MS + 1000);
    await bed.bulk.sweep();
    const swept = (await bed.connection.collection<JobDocument>('bulk_jobs').findOne({ uuid: job.uuid }))!;
    expect(swept.products[1]).toMatchObject({ state: 'handed', check: { outcome: 'unchecked' } });
    expect(generations.get(job.products[1]!.generation_uuid)!.releases).toEqual([
      { mask: undefined, object: undefined, category: undefined },
    ]);
    expect((await jobShowing(job.uuid, { done: 2, waiting_for_check: 0, rendering: 0, failed: 0 })).body.status).toBe(
      'completed',
    );

    const unchecked = await startBatch(['unsure-fast.jpg'], { checkUncertain: 'false' });
    expect(unchecked.products.map((product) => product.state)).toEqual(['handed']);
    expect(generations.get(unchecked.products[0]!.generation_uuid)!.holdAsked).toBe(false);
  });

  test('redo: the first of a product and any of a flagged one are free, a further one costs as a creation', async () => {
    const job = await startBatch(['sure-redo.jpg', 'unsure-redo.jpg']);
    const uuid = job.uuid;
    await productSettled(uuid, 0);
    const redo = (index: number, body: Record<string, unknown> = {}, userId = OWNER) =>
      call<{ generation_uuid: string; credits_charged: number }>(
        'POST',
        `/image-gen/bulk-job/${uuid}/products/${index}/redo`,
        userId,
        body,
      );
    // Not finished (waiting for check): 409; another user's job: 404; a bad mask: 400, nothing changed.
    expect((await redo(1)).status).toBe(409);
    expect((await redo(0, {}, STRANGER)).status).toBe(404);
    expect(await redo(0, { mask: Buffer.from('GIF89a').toString('base64') })).toEqual({
      status: 400,
      body: { code: 400, error: 'The mask must be a PNG image.' },
    });
    const first = job.products[0]!.generation_uuid;
    expect((await bed.connection.collection<JobDocument>('bulk_jobs').findOne({ uuid }))!.products[0]).toMatchObject({
      generation_uuid: first,
      redos: 0,
    });

    // The first redo of the sure product is free; its new images replace the old ones.
    const free = await redo(0, { category: 'toys' });
    expect(free.status).toBe(200);
    expect(free.body.credits_charged).toBe(0);
    expect(redone.at(-1)).toEqual({ from: first, to: free.body.generation_uuid, category: 'toys' });
    await productSettled(uuid, 0);
    // The second costs as a creation: reserved under the new generation.
    const paid = await redo(0);
    expect(paid.status).toBe(200);
    expect(paid.body.credits_charged).toBe(1);
    expect(reservations).toEqual([`${paid.body.generation_uuid}:1`]);
    expect(givenBack).toEqual([]);

    // A flagged product, once checked and rendered: every redo free.
    expect((await decide(uuid, 1, { action: 'looks_right' })).status).toBe(200);
    for (let round = 0; round < 2; round += 1) {
      await productSettled(uuid, 1);
      expect((await redo(1)).body.credits_charged).toBe(0);
    }
    expect(reservations).toHaveLength(1);

    const after = await jobShowing(uuid, { done: 2, waiting_for_check: 0, rendering: 0, failed: 0 });
    expect(after.body.status).toBe('completed');
    // What the job page offers: the sure product's next redo costs, the flagged one's stays free.
    expect(
      after.body.products?.map((product) => [product.index, product.filename, product.redo_free, product.redo_credits]),
    ).toEqual([
      [0, 'sure-redo.jpg', false, 1],
      [1, 'unsure-redo.jpg', true, 0],
    ]);
    const listed = after.body.generations.map((generation) => generation.generation_uuid);
    expect(listed).toContain(paid.body.generation_uuid);
    expect(listed).not.toContain(first);
    expect(listed).not.toContain(free.body.generation_uuid);
    const download = await fetch(`${bed.url}/download/bulk/${uuid}`, { headers: serviceCallHeaders(OWNER) });
    const entries = readZipEntries(Buffer.from(await download.arrayBuffer()));
    expect(entries.find((entry) => entry.name === 'sure-redo/1.jpg')?.data.toString('utf8')).toBe(
      `image 0 of ${paid.body.generation_uuid}`,
    );
  });
});
