import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { BusMessage } from '@productgen/bus';
import {
  OUT_OF_CREDITS_MESSAGE,
  productCategories,
  topics,
  type GenerationStatusResponse,
} from '@productgen/contracts';
import { hostCpu } from '@productgen/host-cpu';
import { metricsRegistry } from '@productgen/service-kit';
import { chooseInt8Kernels } from '@productgen/studio-engine/internals';
import { pngClaimingSize } from '@productgen/test-kit/hostile-images';
import { as, binary, demoPhoto, newUserId, PHOTOS_DIR, serviceSuite, waitForGeneration } from './helpers';

const zipEntries = (zip: Buffer) => zip.toString('latin1').split('PK\u0003\u0004').length - 1;

describe('generation API', () => {
  const suite = serviceSuite();
  const { stack } = suite;
  let mug: string;
  let headphones: string;
  const alice = newUserId();
  const bob = newUserId();

  beforeAll(async () => {
    mug = (await demoPhoto('mug.jpg')).toString('base64');
    headphones = (await readFile(path.join(PHOTOS_DIR, 'test/electronics/headphones-black.jpg'))).toString('base64');
    stack.billing.account(alice, 10);
    stack.billing.account(bob, 10);
  }, 120_000);

  test('/metrics says which int8 kernels each model runs on, and why', async () => {
    const plan = chooseInt8Kernels(hostCpu());
    const metrics = await metricsRegistry.metrics();
    for (const model of ['classifier', 'segmentation', 'upscaler'] as const) {
      const { kernels, reason } = plan[model];
      expect(metrics).toContain(
        `generation_model_int8_kernels_info{model="${model}",kernels="${kernels}",reason="${reason}"} 1`,
      );
    }
  });

  async function analyse(userId: string, image = mug): Promise<string> {
    const response = await as(suite.app.app, userId).post('/image-gen/category', { image });
    expect(response.status).toBe(200);
    return response.body.generation_uuid as string;
  }

  async function create(userId: string, id: string, numGenerates: number, presets?: string[]) {
    return as(suite.app.app, userId).post(
      '/imageGenFromId',
      presets ? { id, numGenerates, presets } : { id, numGenerates },
    );
  }

  async function download(userId: string, url: string) {
    return as(suite.app.app, userId).get(url).buffer(true).parse(binary);
  }

  let aliceGeneration: string;
  let alicePreset: string;

  test('the categories', async () => {
    const response = await request('/image-gen/categories');
    expect(response.body).toEqual(productCategories);
    async function request(url: string) {
      return as(suite.app.app, alice).get(url);
    }
  });

  test('analyse, create 3, status to completed with every fix, downloads, credits', async () => {
    // The file name's product noun names it; without one the classifier, less than sure here, names only the
    // category ("kitchenware"), never a wrong specific object.
    const unnamed = await as(suite.app.app, alice).post('/image-gen/category', { image: mug });
    expect(unnamed.body).toMatchObject({
      category: 'kitchen',
      object: expect.stringMatching(/^(mug|cup|kitchenware)$/),
    });
    const analysis = await as(suite.app.app, alice).post('/image-gen/category', {
      image: mug,
      filename: 'ceramic-mug_02.jpg',
    });
    expect(analysis.status).toBe(200);
    expect(analysis.body).toMatchObject({ category: 'kitchen', object: 'mug' });
    aliceGeneration = analysis.body.generation_uuid;

    const started = await create(alice, aliceGeneration, 3);
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ generation_uuid: aliceGeneration, status: 'pending' });

    const status = await waitForGeneration(suite.app.app, alice, aliceGeneration);
    expect(status).toMatchObject({ analyzed: true, status: 'completed', gen_error: null, has_watermark: true });
    expect(status.images).toHaveLength(3);
    for (const image of status.images) {
      expect(image.metadata.fixes_done).toEqual([true, true, true]);
      const file = await download(alice, image.output_url);
      expect(file.status).toBe(200);
      expect(file.headers['content-disposition']).toMatch(/^attachment; filename="productgen-/);
      const meta = await sharp(file.body as Buffer).metadata();
      expect(meta.format).toBe('jpeg');
      expect(Math.max(meta.width!, meta.height!)).toBeGreaterThanOrEqual(2048);
    }
    const original = await download(alice, `/download/${aliceGeneration}/image/-1`);
    expect(original.status).toBe(200);
    expect((await sharp(original.body as Buffer).metadata()).format).toBe('jpeg');

    const zip = await download(alice, `/download/${aliceGeneration}/batch`);
    expect(zip.status).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zipEntries(zip.body as Buffer)).toBe(3);

    const missing = await as(suite.app.app, alice).get(`/download/${aliceGeneration}/image/undefined`);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('imageIndex is required for image type download');

    expect(stack.billing.credits(alice)).toBe(7);
    expect(stack.billing.log.filter((entry) => entry.userId === alice)).toEqual([
      expect.objectContaining({ amount: -3, generationUuid: aliceGeneration }),
    ]);

    const list = await as(suite.app.app, alice).get('/image-gen/generations');
    expect(list.body).toMatchObject({ total: 1, items: [{ generation_uuid: aliceGeneration }] });
    const records = await as(suite.app.app, alice).get('/records');
    expect(records.body.records).toEqual([
      expect.objectContaining({ type: 'single', id: aliceGeneration, status: 'completed', num_images: 3 }),
    ]);
  }, 180_000);

  test('style presets: save, list, filter, read; creating with one reproduces its look', async () => {
    const saved = await as(suite.app.app, alice).post('/style-presets', {
      generation_uuid: aliceGeneration,
      image_index: 1,
      preset_name: '  Warm table  ',
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ preset_name: 'Warm table', category_name: 'kitchen' });
    alicePreset = saved.body.id;
    expect((await as(suite.app.app, alice).get('/style-presets')).body.presets).toHaveLength(1);
    expect((await as(suite.app.app, alice).get('/style-presets?category=kitchen')).body.presets).toHaveLength(1);
    expect((await as(suite.app.app, alice).get('/style-presets?category=fashion')).body.presets).toHaveLength(0);
    expect((await as(suite.app.app, alice).get(`/style-presets/${alicePreset}`)).body.id).toBe(alicePreset);

    const model = suite.app.connection.model('Generation');
    const source = (await model.findOne({ uuid: aliceGeneration }).lean()) as unknown as {
      variations: { recipe: { look: string; palette: object } }[];
    };
    const second = await analyse(alice, headphones);
    expect((await create(alice, second, 1, [alicePreset])).status).toBe(200);
    const created = (await model.findOne({ uuid: second }).lean()) as unknown as typeof source;
    expect(created.variations[0]!.recipe).toEqual(source.variations[1]!.recipe);
    await waitForGeneration(suite.app.app, alice, second);
  }, 180_000);

  test('another user gets 404 on status, images, presets and downloads', async () => {
    const asBob = as(suite.app.app, bob);
    for (const url of [
      `/image-gen/status/${aliceGeneration}`,
      `/image-gen/generated/${aliceGeneration}`,
      `/download/${aliceGeneration}/image/0`,
      `/download/${aliceGeneration}/image/-1`,
      `/download/${aliceGeneration}/batch`,
      `/style-presets/${alicePreset}`,
    ]) {
      const response = await asBob.get(url);
      expect({ url, status: response.status }).toEqual({ url, status: 404 });
    }
    expect((await asBob.get('/style-presets')).body.presets).toEqual([]);
    const saveOnAlice = await asBob.post('/style-presets', {
      generation_uuid: aliceGeneration,
      image_index: 0,
      preset_name: 'mine',
    });
    expect(saveOnAlice.status).toBe(404);
    const own = await analyse(bob);
    const foreign = await create(bob, own, 1, [alicePreset]);
    expect(foreign.status).toBe(404);
    expect(stack.billing.credits(bob)).toBe(10);
  }, 120_000);

  test('a purchaser gets no watermark', async () => {
    const carol = newUserId();
    stack.billing.account(carol, 5, true);
    const id = await analyse(carol);
    expect((await create(carol, id, 1)).status).toBe(200);
    const status = await waitForGeneration(suite.app.app, carol, id);
    expect(status).toMatchObject({ status: 'completed', has_watermark: false });
  }, 120_000);

  test('a broken image gives its credit back and shows its error', async () => {
    const dave = newUserId();
    stack.billing.account(dave, 10);
    const first = await analyse(dave);
    expect((await create(dave, first, 2)).status).toBe(200);
    await waitForGeneration(suite.app.app, dave, first);
    const keep = await as(suite.app.app, dave).post('/style-presets', {
      generation_uuid: first,
      image_index: 0,
      preset_name: 'white',
    });
    const retired = await as(suite.app.app, dave).post('/style-presets', {
      generation_uuid: first,
      image_index: 1,
      preset_name: 'old',
    });
    // A preset saved by an older version whose look the renderer no longer has.
    await suite.app.connection
      .model('StylePreset')
      .updateOne({ _id: retired.body.id }, { $set: { 'recipe.look': 'retired-look' } });

    const second = await analyse(dave);
    expect((await create(dave, second, 2, [keep.body.id, retired.body.id])).status).toBe(200);
    const status = await waitForGeneration(suite.app.app, dave, second);
    expect(status.status).toBe('completed');
    expect(status.images).toHaveLength(1);
    expect(status.gen_error).toMatch(/1 of 2 images could not be made.*retired-look/);
    expect(stack.billing.credits(dave)).toBe(10 - 2 - 2 + 1);
    expect(stack.billing.refunds.has(`${second}:1`)).toBe(true);
  }, 180_000);

  test('a redelivered job, even while the first delivery is running, makes no duplicate and charges once', async () => {
    const erin = newUserId();
    stack.billing.account(erin, 10);
    const id = await analyse(erin);
    // A worker of its own, so the job can be delivered twice at once.
    expect((await create(erin, id, 3)).status).toBe(200);
    const generation = await suite.app.connection.model('Generation').findOne({ uuid: id }).lean();
    expect(generation).not.toBeNull();
    const payload = {
      userId: erin,
      generation_uuid: id,
      count: 3,
      category: 'kitchen',
      original_object_key: (generation as unknown as { original_key: string }).original_key,
      original_filename: null,
      variations: [0, 1, 2].map((index) => ({ index, style: 'x', seed: 1, preset_id: null })),
      watermark: true,
      bulk_job_uuid: null,
      at: new Date().toISOString(),
    };
    const redelivery: BusMessage = {
      id: `${topics.generationRequested}:${id}`,
      topic: topics.generationRequested,
      payload,
      headers: {},
      deliveryCount: 2,
      publishedAt: new Date(),
    };
    await suite.app.worker.handle(redelivery);
    const status = await waitForGeneration(suite.app.app, erin, id);
    expect(status.images).toHaveLength(3);
    expect(status.status).toBe('completed');
    // Once more after completion: nothing changes.
    await suite.app.worker.handle(redelivery);
    const after = (await as(suite.app.app, erin).get(`/image-gen/status/${id}`)).body as GenerationStatusResponse;
    expect(after.images.map((image) => image.output_url)).toEqual(status.images.map((image) => image.output_url));
    expect(stack.billing.log.filter((entry) => entry.generationUuid === id)).toHaveLength(1);
    expect(stack.billing.credits(erin)).toBe(7);
  }, 180_000);

  test('a render job whose publish failed is published by the sweeper: charged once, made once', async () => {
    const fran = newUserId();
    stack.billing.account(fran, 10);
    // An API replica (no worker of its own) whose broker refuses the first render job.
    const bus = stack.bus();
    let refusals = 0;
    const flakyBus: typeof bus = Object.create(bus);
    flakyBus.publish = async (topic, payload, options) => {
      if (topic === topics.generationRequested && refusals === 0) {
        refusals += 1;
        throw new Error('broker unavailable');
      }
      return bus.publish(topic, payload, options);
    };
    // The publish grace is 1 ms, so the sweep below finds the job due at once.
    const api = await stack.service({ bus: flakyBus, env: { GENERATION_WORKER: 'off', PUBLISH_GRACE_MS: '1' } });

    const id = (await as(api.app, fran).post('/image-gen/category', { image: mug })).body.generation_uuid as string;
    const started = await as(api.app, fran).post('/imageGenFromId', { id, numGenerates: 1 });
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ generation_uuid: id, status: 'pending' });
    expect(refusals).toBe(1);
    const recorded = await api.connection.model('Generation').findOne({ uuid: id }).lean();
    expect(recorded).toMatchObject({ stage: 'pending', job_published_at: null });

    expect((await api.sweeper.sweep()).stuck).toEqual({ publish: 1 });
    const status = await waitForGeneration(suite.app.app, fran, id);
    expect(status.status).toBe('completed');
    expect(status.images).toHaveLength(1);
    // Nothing is left for the next sweep, and the credits were reserved once.
    expect(await api.sweeper.sweep()).toEqual({ deadLetters: 0, reserving: {}, stuck: {}, expired: 0, errors: 0 });
    expect(stack.billing.log.filter((entry) => entry.generationUuid === id)).toHaveLength(1);
    expect(stack.billing.credits(fran)).toBe(9);
  }, 180_000);

  test('bad input is a clear 4xx; nothing is charged or stored', async () => {
    const frank = newUserId();
    stack.billing.account(frank, 10);
    const id = await analyse(frank);
    const generationsBefore = await suite.app.connection.model('Generation').countDocuments();
    const logBefore = stack.billing.log.length;
    const jpeg = await demoPhoto('mug.jpg');
    const asFrank = as(suite.app.app, frank);

    const cases: [string, () => Promise<{ status: number; body: { error?: string } }>, number][] = [
      [
        'text sent as an image',
        () =>
          asFrank.post('/image-gen/category', { image: Buffer.from('hello, not an image at all').toString('base64') }),
        415,
      ],
      [
        'truncated JPEG',
        () =>
          asFrank.post('/image-gen/category', {
            image: jpeg.subarray(0, Math.floor(jpeg.length * 0.6)).toString('base64'),
          }),
        400,
      ],
      [
        '30000×30000 PNG',
        () => asFrank.post('/image-gen/category', { image: pngClaimingSize().toString('base64') }),
        413,
      ],
      ['empty image', () => asFrank.post('/image-gen/category', { image: '' }), 400],
      ['no body', () => asFrank.post('/image-gen/category'), 400],
      ['numGenerates 0', () => create(frank, id, 0), 400],
      ['numGenerates 6', () => create(frank, id, 6), 400],
      ['six presets', () => create(frank, id, 6, ['a', 'b', 'c', 'd', 'e', 'f']), 400],
      ['unknown preset', () => create(frank, id, 1, ['0123456789abcdef01234567']), 404],
      [
        'imageGen with a non-image',
        () => asFrank.post('/imageGen', { base64str: Buffer.from('%PDF-1.4').toString('base64'), numGenerates: 1 }),
        415,
      ],
      ['unknown generation', () => create(frank, '6f1c1f0e-8a51-4a43-9d1d-0e6f1d3c2b1a', 1), 404],
    ];
    for (const [name, send, expected] of cases) {
      const response = await send();
      expect({ name, status: response.status }).toEqual({ name, status: expected });
      expect(typeof response.body.error).toBe('string');
    }
    stack.billing.account(frank, 1);
    const tooMany = await create(frank, id, 2);
    expect(tooMany.status).toBe(402);
    expect(tooMany.body.error).toBe(OUT_OF_CREDITS_MESSAGE);
    expect(stack.billing.credits(frank)).toBe(1);
    expect(stack.billing.log.length).toBe(logBefore);
    expect(await suite.app.connection.model('Generation').countDocuments()).toBe(generationsBefore);
    // The photo is still there to create from once topped up.
    const status = (await asFrank.get(`/image-gen/status/${id}`)).body as GenerationStatusResponse;
    expect(status).toMatchObject({ analyzed: true, status: 'pending', images: [] });
  }, 120_000);
});
