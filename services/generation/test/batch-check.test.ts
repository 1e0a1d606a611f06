import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import request from 'supertest';
import { MASK_NOT_PNG_MESSAGE } from '../src/creation';
import { NOT_FINISHED_MESSAGE, NOT_HELD_MESSAGE } from '../src/bulk-creation';
import { storeBatchPhoto } from './batch-photos';
import { batchReservation, demoPhoto, newUserId, serviceSuite } from './helpers';

// Batch review on generation's side: with "Check uncertain products before rendering", a product analysis is unsure
// of is held (credits still reserved, nothing rendered) until bulk releases it, as analysed or corrected (exactly
// once, a bad mask refused), or drops it (every reserved credit given back). The uncertain photo is made here from a
// demo photo by a reproducible edit: blurred until neither its outline nor what it is can be told for sure.
describe("batch products held for the seller's check", () => {
  const suite = serviceSuite();
  const { stack } = suite;
  let mug: Buffer;
  let blurredMug: Buffer;
  const user = newUserId();
  const job = randomUUID();

  beforeAll(async () => {
    mug = await demoPhoto('mug.jpg');
    blurredMug = await sharp(mug).blur(25).jpeg().toBuffer();
  }, 120_000);

  const reserved = (count: number) => batchReservation(stack, user, count);

  const handOver = async (uuid: string, photo: Buffer, holdUncertain: boolean, count = 2) =>
    request(suite.app.app)
      .post('/internal/bulk-generations')
      .send({
        userId: user,
        bulk_job_uuid: job,
        generation_uuid: uuid,
        original_filename: 'mug.jpg',
        photo: await storeBatchPhoto(stack.objectStore(), user, job, photo),
        count,
        presets: [],
        watermark: true,
        hold_uncertain: holdUncertain,
      });
  const release = (uuid: string, body: Record<string, unknown> = {}, userId = user) =>
    request(suite.app.app)
      .post(`/internal/bulk-generations/${uuid}/release`)
      .send({ userId, ...body });
  const drop = (uuid: string, userId = user) =>
    request(suite.app.app).post(`/internal/bulk-generations/${uuid}/drop`).send({ userId });
  const record = (uuid: string) => suite.app.connection.collection('generations').findOne({ uuid });
  const refundsOf = (uuid: string) => [...stack.billing.refunds].filter((key) => key.startsWith(uuid)).sort();

  test('an uncertain product is held with its reasons, nothing rendered or given back; a sure one renders', async () => {
    const unsure = reserved(2);
    const held = await handOver(unsure, blurredMug, true);
    expect(held.status).toBe(200);
    expect(held.body).toMatchObject({ generation_uuid: unsure, outcome: 'held', images: 2 });
    expect(held.body.check_reasons).toContain('cutout');
    expect(await record(unsure)).toMatchObject({ stage: 'held', job_published_at: null, variations: [] });
    expect(refundsOf(unsure)).toEqual([]);
    // A repeated hand-over answers the same.
    expect((await handOver(unsure, blurredMug, true)).body.outcome).toBe('held');

    const sure = reserved(1);
    expect((await handOver(sure, mug, true, 1)).body).toMatchObject({ outcome: 'queued', check_reasons: [] });
    // The option off: the same uncertain photo renders at once.
    const unchecked = reserved(1);
    expect((await handOver(unchecked, blurredMug, false, 1)).body).toMatchObject({ outcome: 'queued' });
  }, 180_000);

  test('release: a bad mask is 400 and changes nothing; of two concurrent releases exactly one renders', async () => {
    const uuid = reserved(2);
    expect((await handOver(uuid, blurredMug, true)).body.outcome).toBe('held');
    const notPng = await release(uuid, { mask: Buffer.from('not a png at all').toString('base64') });
    expect(notPng.status).toBe(400);
    expect(notPng.body.error).toBe(MASK_NOT_PNG_MESSAGE);
    const tiny = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    const wrongSize = await release(uuid, { mask: tiny.toString('base64') });
    expect(wrongSize.status).toBe(400);
    expect(wrongSize.body.error).toMatch(/^The mask must be \d+×\d+ pixels/);
    expect((await record(uuid))?.stage).toBe('held');
    expect((await release(uuid, {}, newUserId())).status).toBe(404);

    const answers = await Promise.all([
      release(uuid, { object: 'coffee mug', category: 'kitchen' }),
      release(uuid, { object: 'coffee mug', category: 'kitchen' }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const won = answers.find((answer) => answer.status === 200)!;
    expect(won.body).toEqual({ generation_uuid: uuid, outcome: 'queued', images: 2, credits_returned: 0 });
    expect(answers.find((answer) => answer.status === 409)!.body.error).toBe(NOT_HELD_MESSAGE);
    const released = await record(uuid);
    expect(released).toMatchObject({ stage: expect.not.stringMatching(/^held$/), object: 'coffee mug' });
    expect(released?.variations).toHaveLength(2);
    expect(released?.job_published_at).toBeInstanceOf(Date);
    expect(refundsOf(uuid)).toEqual([]);
  }, 180_000);

  test('drop: every reserved credit back at once, never rendered; a second drop or a release is 409', async () => {
    const uuid = reserved(3);
    expect((await handOver(uuid, blurredMug, true, 3)).body.outcome).toBe('held');
    expect((await drop(uuid, newUserId())).status).toBe(404);
    const dropped = await drop(uuid);
    expect(dropped.status).toBe(200);
    expect(dropped.body).toEqual({ generation_uuid: uuid, credits_returned: 3 });
    expect(refundsOf(uuid)).toEqual([`${uuid}:0`, `${uuid}:1`, `${uuid}:2`]);
    expect(await record(uuid)).toMatchObject({ stage: 'failed', job_published_at: null });
    expect((await drop(uuid)).status).toBe(409);
    expect((await release(uuid)).status).toBe(409);
  }, 180_000);

  test('redo of a finished product: a new generation from the same photo, corrected; a bad mask 400; once', async () => {
    const uuid = reserved(1);
    expect((await handOver(uuid, mug, true, 1)).body.outcome).toBe('queued');
    const redo = (body: Record<string, unknown>, userId = user) =>
      request(suite.app.app)
        .post(`/internal/bulk-generations/${uuid}/redo`)
        .send({ userId, count: 1, presets: [], watermark: true, ...body });
    // Still rendering (or queued): not yet.
    const early = await redo({ new_generation_uuid: randomUUID() });
    expect(early.status).toBe(409);
    expect(early.body.error).toBe(NOT_FINISHED_MESSAGE);
    // What the worker's settlement records once its images are made (rendering itself is tested elsewhere).
    await suite.app.connection.collection('generations').updateOne({ uuid }, { $set: { stage: 'completed' } });

    expect((await redo({ new_generation_uuid: randomUUID() }, newUserId())).status).toBe(404);
    const refused = randomUUID();
    const badMask = await redo({ new_generation_uuid: refused, mask: Buffer.from('GIF89a').toString('base64') });
    expect(badMask.status).toBe(400);
    expect(badMask.body.error).toBe(MASK_NOT_PNG_MESSAGE);
    expect(await record(refused)).toBeNull();

    const newUuid = randomUUID();
    const answers = [
      await redo({ new_generation_uuid: newUuid, object: 'espresso cup', category: 'kitchen' }),
      await redo({ new_generation_uuid: newUuid, object: 'espresso cup', category: 'kitchen' }),
    ];
    for (const answer of answers) {
      expect(answer.body).toEqual({ generation_uuid: newUuid, outcome: 'queued', images: 1 });
    }
    const source = await record(uuid);
    const redone = await record(newUuid);
    // Queued for the render worker (this stack runs one, which may have taken it already).
    expect(['pending', 'processing', 'completed']).toContain(redone?.stage);
    expect(redone).toMatchObject({
      bulk_job_uuid: job,
      object: 'espresso cup',
      original_filename: 'mug.jpg',
    });
    expect(redone?.original_key).not.toBe(source?.original_key);
    expect(redone?.cutout?.key).not.toBe(source?.cutout?.key);
    expect(redone?.job_published_at).toBeInstanceOf(Date);
    expect(await suite.app.connection.collection('generations').countDocuments({ uuid: newUuid })).toBe(1);
  }, 180_000);
});
