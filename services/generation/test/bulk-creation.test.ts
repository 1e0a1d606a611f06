import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { planVariations } from '@productgen/studio-engine';
import { NOT_A_BATCH_PHOTO_MESSAGE } from '@productgen/contracts';
import { BATCH_PHOTO_NOT_FOUND_MESSAGE } from '../src/bulk-creation';
import { storeBatchPhoto } from './batch-photos';
import { batchReservation, demoPhoto, newUserId, serviceSuite } from './helpers';

// Generation's side of a batch (bulk's internal calls): a product whose category no chosen preset has is skipped and
// its credits given back; a photo that fails the checks fails with its credits given back; a repeated hand-over
// answers the same without giving anything back twice. Bulk's batch reservation is stood in by the billing fixture.
describe('batch products handed over by bulk', () => {
  const suite = serviceSuite();
  const { stack } = suite;
  let mug: Buffer;
  const user = newUserId();
  const job = randomUUID();

  beforeAll(async () => {
    mug = await demoPhoto('mug.jpg');
  }, 120_000);

  const reserved = (count: number) => batchReservation(stack, user, count);

  async function presetFor(category: string): Promise<string> {
    const [variation] = planVariations({ generationUuid: randomUUID(), category: category as never, count: 1 });
    const created = await suite.app.connection.collection('style_presets').insertOne({
      user_id: user,
      name: `Only ${category}`,
      category,
      recipe: variation!.recipe,
      source_generation_uuid: randomUUID(),
      source_image_index: 0,
      created_at: new Date(),
    });
    return created.insertedId.toHexString();
  }

  const handOver = async (body: Record<string, unknown>, photo = mug) =>
    request(suite.app.app)
      .post('/internal/bulk-generations')
      .send({
        userId: user,
        bulk_job_uuid: job,
        original_filename: 'mug.jpg',
        photo: await storeBatchPhoto(stack.objectStore(), user, job, photo),
        presets: [],
        watermark: true,
        ...body,
      });

  test('no chosen preset fits the product: skipped, every credit given back, nothing recorded', async () => {
    const uuid = reserved(2);
    const presets = [await presetFor('fashion'), await presetFor('jewelry')];
    const answer = await handOver({ generation_uuid: uuid, count: 2, presets });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ generation_uuid: uuid, outcome: 'skipped', category: 'kitchen', images: 0 });
    expect([...stack.billing.refunds].filter((key) => key.startsWith(uuid)).sort()).toEqual([`${uuid}:0`, `${uuid}:1`]);
    expect(await suite.app.connection.collection('generations').countDocuments({ uuid })).toBe(0);

    // Bulk hands the product over again after a restart: the same answer, nothing given back twice.
    const again = await handOver({ generation_uuid: uuid, count: 2, presets });
    expect(again.body.outcome).toBe('skipped');
    expect([...stack.billing.refunds].filter((key) => key.startsWith(uuid))).toHaveLength(2);
  }, 120_000);

  test('a photo that fails the checks: failed with the reason, every credit given back', async () => {
    const uuid = reserved(3);
    const answer = await handOver({ generation_uuid: uuid, count: 3 }, Buffer.from('%PDF-1.7 not a photo'));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      outcome: 'failed',
      images: 0,
      error: 'The file is not a supported image (JPEG, PNG or WebP).',
    });
    expect([...stack.billing.refunds].filter((key) => key.startsWith(uuid))).toHaveLength(3);
  }, 120_000);

  test("a photo is read only under its own batch's prefix in the batch photos' bucket: 400 otherwise, 404 when missing", async () => {
    const uuid = reserved(1);
    const store = stack.objectStore();
    const own = await storeBatchPhoto(store, user, job, mug);
    const otherUser = await storeBatchPhoto(store, newUserId(), job, mug);
    const otherJob = await storeBatchPhoto(store, user, randomUUID(), mug);
    const refused = [
      otherUser,
      otherJob,
      { bucket: 'another-bucket', key: own.key },
      { bucket: own.bucket, key: `generations/${randomUUID()}/original.jpg` },
      { bucket: own.bucket, key: `${own.key.replace(/[^/]+$/, '')}../x/1.jpg` },
    ];
    for (const photo of refused) {
      const answer = await handOver({ generation_uuid: uuid, count: 1, photo });
      expect({ status: answer.status, error: answer.body.error }).toEqual({
        status: 400,
        error: NOT_A_BATCH_PHOTO_MESSAGE,
      });
    }
    const missing = await handOver({
      generation_uuid: uuid,
      count: 1,
      photo: { ...own, key: own.key.replace(/\/[0-9]+\.jpg$/, '/99999.jpg') },
    });
    expect({ status: missing.status, error: missing.body.error }).toEqual({
      status: 404,
      error: BATCH_PHOTO_NOT_FOUND_MESSAGE,
    });
    // Nothing was recorded or given back by a refused reference.
    expect(await suite.app.connection.collection('generations').countDocuments({ uuid })).toBe(0);
    expect([...stack.billing.refunds].filter((key) => key.startsWith(uuid))).toEqual([]);
  }, 60_000);

  test("presets by id: the user's own with their categories; an unknown one is a 404; a job's generations", async () => {
    const kitchen = await presetFor('kitchen');
    const found = await request(suite.app.app).get(`/internal/users/${user}/style-presets?ids=${kitchen}`);
    expect(found.body).toEqual({ presets: [{ id: kitchen, preset_name: 'Only kitchen', category_name: 'kitchen' }] });
    const missing = await request(suite.app.app).get(`/internal/users/${user}/style-presets?ids=p-unknown`);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('Style preset not found: p-unknown');
    const listed = await request(suite.app.app).get(`/internal/users/${user}/bulk-jobs/${job}/generations`);
    expect(listed.body).toEqual({ generations: [] });
  }, 60_000);
});
