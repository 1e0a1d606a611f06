import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { topics, type GenerationDownloads, type GenerationObjectRef } from '@productgen/contracts';
import { REFUNDED_IMAGE_MESSAGE } from '../src/domain/generation';
import { watermarkOverlay } from '@productgen/studio-engine/internals';
import { as, binary, demoPhoto, newUserId, serviceSuite, waitForGeneration } from './helpers';

/**
 * Security review item 4: what a user can download without paying for it. Every image a free user (never
 * purchased) gets, the base preview included, carries the watermark; an image whose refund was granted is withdrawn.
 */
describe('free-tier downloads', () => {
  const suite = serviceSuite();
  const { stack } = suite;
  let mug: string;

  beforeAll(async () => {
    mug = (await demoPhoto('mug.jpg')).toString('base64');
  }, 120_000);

  async function analyse(userId: string): Promise<string> {
    const response = await as(suite.app.app, userId).post('/image-gen/category', { image: mug });
    expect(response.status).toBe(200);
    return response.body.generation_uuid as string;
  }

  async function create(userId: string, id: string, presets?: string[], numGenerates = 1): Promise<string> {
    const response = await as(suite.app.app, userId).post('/imageGenFromId', { id, numGenerates, presets });
    expect(response.status).toBe(200);
    const uuid = response.body.generation_uuid as string;
    expect((await waitForGeneration(suite.app.app, userId, uuid)).status).toBe('completed');
    return uuid;
  }

  async function download(userId: string, url: string) {
    return as(suite.app.app, userId).get(url).buffer(true).parse(binary);
  }

  /** The base preview as the download route serves it while no finished image exists (during the render, or when the fixes failed). */
  async function servedBase(userId: string, uuid: string): Promise<Buffer> {
    await suite.app.connection.model('Generation').updateOne({ uuid }, { $set: { 'images.0.final_key': null } });
    const response = await download(userId, `/download/${uuid}/image/0?v=base`);
    expect(response.status).toBe(200);
    return response.body as Buffer;
  }

  /** An object as bulk reads it for Download All, by the reference generation lists. */
  async function stored(ref: GenerationObjectRef): Promise<Buffer> {
    expect(ref.bucket).toBe(stack.objectStore().bucket);
    const chunks: Buffer[] = [];
    for await (const chunk of await stack.objectStore().getObjectStream(ref.key)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async function servedPixels(userId: string, uuid: string): Promise<Buffer> {
    const { data, info } = await sharp(await servedBase(userId, uuid))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([1024, 1024, 3]);
    return data;
  }

  test("a free user's base preview carries the finished image's watermark", async () => {
    const free = newUserId();
    stack.billing.account(free, 10, false);
    const photo = await analyse(free);
    const marked = await create(free, photo);
    // The same look again after a purchase: the same base, but without the watermark.
    const preset = await as(suite.app.app, free).post('/style-presets', {
      generation_uuid: marked,
      image_index: 0,
      preset_name: 'same look',
    });
    expect(preset.status).toBe(200);
    stack.billing.account(free, 10, true);
    const clean = await create(free, photo, [preset.body.id as string]);

    const markedBase = await servedPixels(free, marked);
    const cleanBase = await servedPixels(free, clean);
    const overlay = await watermarkOverlay(1024, 'ProductGen');
    const difference = { under: 0, underPixels: 0, elsewhere: 0, elsewherePixels: 0 };
    for (let k = 0; k < 1024 * 1024; k += 1) {
      let delta = 0;
      for (let c = 0; c < 3; c += 1) delta += Math.abs(markedBase[k * 3 + c]! - cleanBase[k * 3 + c]!);
      if (overlay.rgba[k * 4 + 3]! > 64) {
        difference.under += delta;
        difference.underPixels += 1;
      } else if (overlay.rgba[k * 4 + 3] === 0) {
        difference.elsewhere += delta;
        difference.elsewherePixels += 1;
      }
    }
    const under = difference.under / difference.underPixels;
    const elsewhere = difference.elsewhere / difference.elsewherePixels;
    // The watermark's marks show in the free base; away from them the two bases agree (up to JPEG's blocks).
    expect(under).toBeGreaterThan(20);
    expect(elsewhere).toBeLessThan(under / 4);

    // A base stored before bases carried the watermark (no flag) is a clean copy: a free user's is not served, and
    // the status no longer offers it; a purchaser's is.
    const legacy = { $unset: { 'images.0.base_watermarked': '' } };
    await suite.app.connection.model('Generation').updateMany({ uuid: { $in: [marked, clean] } }, legacy);
    expect((await download(free, `/download/${marked}/image/0?v=base`)).status).toBe(404);
    expect((await as(suite.app.app, free).get(`/image-gen/status/${marked}`)).body.images).toEqual([]);
    expect((await download(free, `/download/${clean}/image/0?v=base`)).status).toBe(200);
    // Nor is it among the objects a batch's Download All is given to read.
    const batch = randomUUID();
    await suite.app.connection.model('Generation').updateOne({ uuid: marked }, { $set: { bulk_job_uuid: batch } });
    const listed = await as(suite.app.app, free).get(`/internal/users/${free}/bulk-jobs/${batch}/generations`);
    expect(listed.status).toBe(200);
    expect((listed.body.generations[0].downloads as GenerationDownloads).images).toEqual([]);
  }, 240_000);

  /** What billing publishes once a user's refund of an image is applied. */
  async function refundGranted(userId: string, uuid: string, index: number): Promise<void> {
    const payload = { userId, generation_uuid: uuid, image_index: index, at: new Date().toISOString() };
    await suite.app.bus.publish(topics.creditsImageRefunded, payload, {
      messageId: `${topics.creditsImageRefunded}:refund:${uuid}:${index}`,
    });
  }

  /** Waits for the download to answer `status` (the refund reaches generation as a message). */
  async function downloadUntil(userId: string, url: string, status: number) {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const response = await download(userId, url);
      if (response.status === status || Date.now() > deadline) return response;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  test('a refunded image is withdrawn from downloads, zips and lists; the other images stay', async () => {
    const seller = newUserId();
    const other = newUserId();
    stack.billing.account(seller, 10, true);
    const uuid = await create(seller, await analyse(seller), undefined, 2);
    expect((await download(seller, `/download/${uuid}/image/0`)).status).toBe(200);

    // Someone else's refund message for this generation withdraws nothing.
    await refundGranted(other, uuid, 0);
    await refundGranted(seller, uuid, 0);
    const withdrawn = await downloadUntil(seller, `/download/${uuid}/image/0`, 410);
    expect(withdrawn.status).toBe(410);
    expect(JSON.parse((withdrawn.body as Buffer).toString('utf8'))).toMatchObject({ error: REFUNDED_IMAGE_MESSAGE });
    // A redelivery changes nothing.
    await refundGranted(seller, uuid, 0);

    expect((await download(seller, `/download/${uuid}/image/1`)).status).toBe(200);
    const zip = (await download(seller, `/download/${uuid}/batch`)).body as Buffer;
    const entries = zip.toString('latin1').match(/productgen-[0-9a-f]{8}-\d\.jpg/g) ?? [];
    expect(new Set(entries)).toEqual(new Set([`productgen-${uuid.slice(0, 8)}-2.jpg`]));
    // The lists (and a batch's Download All, which zips what the generation lists) no longer offer it.
    const status = await as(suite.app.app, seller).get(`/image-gen/status/${uuid}`);
    expect(status.body.images.map((image: { id: string }) => image.id)).toEqual([`${uuid}-1`]);
    const detail = await as(suite.app.app, seller).get(`/image-gen/generated/${uuid}`);
    expect(detail.body.images.map((image: { id: string }) => image.id)).toEqual([`${uuid}-1`]);
    // Bulk's Download All zips the images this internal route lists for the batch.
    const batch = randomUUID();
    await suite.app.connection.model('Generation').updateOne({ uuid }, { $set: { bulk_job_uuid: batch } });
    const listed = await as(suite.app.app, seller).get(`/internal/users/${seller}/bulk-jobs/${batch}/generations`);
    expect(listed.status).toBe(200);
    expect(listed.body.generations[0].images.map((image: { id: string }) => image.id)).toEqual([`${uuid}-1`]);
    // It reads them itself, by the references listed: the very objects the download route serves, none of image 0.
    const downloads = listed.body.generations[0].downloads as GenerationDownloads;
    expect(downloads.images.map((image) => [image.index, image.bucket])).toEqual([[1, stack.objectStore().bucket]]);
    expect(await stored(downloads.images[0]!)).toEqual((await download(seller, `/download/${uuid}/image/1`)).body);
    expect(await stored(downloads.original)).toEqual((await download(seller, `/download/${uuid}/image/-1`)).body);

    await refundGranted(seller, uuid, 1);
    expect((await downloadUntil(seller, `/download/${uuid}/image/1`, 410)).status).toBe(410);
    expect((await download(seller, `/download/${uuid}/batch`)).status).toBe(404);
  }, 240_000);
});
