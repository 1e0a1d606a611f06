import sharp from 'sharp';
import { limits, type Cutout } from '@productgen/contracts';
import {
  ALREADY_CREATED_MESSAGE,
  MASK_KEEPS_NOTHING_MESSAGE,
  MASK_NOT_PNG_MESSAGE,
  MASK_UNREADABLE_MESSAGE,
  UNKNOWN_CATEGORY_MESSAGE,
} from '../src/creation';
import type { GenerationDocument } from '../src/data/schemas';
import {
  familyOf,
  ensureModels,
  loadModelRuntime,
  StudioRenderer,
  type StageTimes,
} from '@productgen/studio-engine/internals';
import { as, binary, demoPhoto, newUserId, serviceSuite, SHARED_MODELS_DIR, waitForGeneration } from './helpers';

// The seller's corrections before Create (issue 14): the cut-out mask stored at analysis, read and replaced through
// the API, used by the worker for every image; the product name and category, whose category picks the looks.

/** Share of the photo's width given to a magenta frame: analysis leaves it out of the cut-out, a seller may keep it. */
const FRAME_SHARE = 0.08;

/** Pixels of a JPEG that are clearly the frame's magenta (#ff00ff, allowing for compression and the light match). */
async function magentaPixels(jpeg: Buffer): Promise<number> {
  const { data } = await sharp(jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let count = 0;
  for (let k = 0; k < data.length; k += 3) {
    if (data[k]! > 180 && data[k + 1]! < 90 && data[k + 2]! > 180) count += 1;
  }
  return count;
}

/** A grayscale PNG of `width`×`height` from one byte per pixel. */
function grayPng(gray: Buffer, width: number, height: number): Promise<Buffer> {
  return sharp(gray, { raw: { width, height, channels: 1 } })
    .toColourspace('b-w')
    .png()
    .toBuffer();
}

describe('correcting an analysis before Create', () => {
  const suite = serviceSuite();
  const { stack } = suite;
  let framedMug: string;
  const seller = newUserId();
  const stranger = newUserId();

  beforeAll(async () => {
    const mug = await sharp(await demoPhoto('mug.jpg'))
      .resize(900, 900, { fit: 'inside' })
      .toBuffer();
    const border = Math.round(900 * FRAME_SHARE);
    framedMug = (
      await sharp(mug)
        .extend({ top: border, bottom: border, left: border, right: border, background: '#ff00ff' })
        .jpeg({ quality: 92 })
        .toBuffer()
    ).toString('base64');
    // Purchasers: no watermark over the images whose pixels are counted.
    stack.billing.account(seller, 10, true);
    stack.billing.account(stranger, 10, true);
  }, 120_000);

  const generations = () => suite.app.connection.collection<GenerationDocument>('generations');

  async function analyse(userId: string): Promise<string> {
    const response = await as(suite.app.app, userId).post('/image-gen/category', { image: framedMug });
    expect(response.status).toBe(200);
    return response.body.generation_uuid as string;
  }

  async function cutoutOf(userId: string, uuid: string): Promise<Cutout> {
    const response = await as(suite.app.app, userId).get(`/image-gen/cutout/${uuid}`);
    expect(response.status).toBe(200);
    return response.body as Cutout;
  }

  /** The finished image of a completed one-image generation. */
  async function createdImage(userId: string, uuid: string, presets?: string[]): Promise<Buffer> {
    const started = await as(suite.app.app, userId).post(
      '/imageGenFromId',
      presets ? { id: uuid, numGenerates: presets.length, presets } : { id: uuid, numGenerates: 1 },
    );
    expect(started.status).toBe(200);
    const status = await waitForGeneration(suite.app.app, userId, uuid);
    expect(status.status).toBe('completed');
    const file = await as(suite.app.app, userId).get(status.images[0]!.output_url).buffer(true).parse(binary);
    expect(file.status).toBe(200);
    return file.body as Buffer;
  }

  /** The stored mask with every pixel of the frame's left band the matte left out set to keep (255). */
  async function maskKeepingLeftFrame(cutout: Cutout): Promise<{ png: Buffer; kept: number }> {
    const { data, info } = await sharp(Buffer.from(cutout.mask, 'base64'))
      .extractChannel(0)
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([cutout.width, cutout.height]);
    // The frame is FRAME_SHARE of the framed photo's inner width on each side: 0.08 / 1.16 of the whole.
    const band = Math.floor((cutout.width * FRAME_SHARE) / (1 + 2 * FRAME_SHARE)) - 2;
    let kept = 0;
    for (let y = 0; y < cutout.height; y += 1) {
      for (let x = 0; x < band; x += 1) {
        const at = y * cutout.width + x;
        if (data[at]! < 26) kept += 1;
        data[at] = 255;
      }
    }
    return { png: await grayPng(data, cutout.width, cutout.height), kept };
  }

  let autoImage: Buffer;
  let autoPreset: string;

  test('analysis stores the matte it cut the product out by; the seller reads it; the worker cuts by it', async () => {
    const uuid = await analyse(seller);
    const record = await generations().findOne({ uuid });
    expect(record?.cutout).toMatchObject({ corrected: false, key: expect.stringContaining(uuid) });

    const cutout = await cutoutOf(seller, uuid);
    expect(cutout).toMatchObject({ generation_uuid: uuid, corrected: false, low_confidence: expect.any(Boolean) });
    expect(Math.max(cutout.width, cutout.height)).toBeLessThanOrEqual(1024);
    expect(cutout.confidence).toBeGreaterThan(0);
    expect(cutout.confidence).toBeLessThanOrEqual(1);
    const png = Buffer.from(cutout.mask, 'base64');
    const meta = await sharp(png).metadata();
    expect(meta).toMatchObject({ format: 'png', width: cutout.width, height: cutout.height, channels: 1 });

    autoImage = await createdImage(seller, uuid);
    expect(await magentaPixels(autoImage)).toBeLessThan(50);
    const preset = await as(suite.app.app, seller).post('/style-presets', {
      generation_uuid: uuid,
      image_index: 0,
      preset_name: 'White main image',
    });
    expect(preset.status).toBe(200);
    autoPreset = preset.body.id as string;
  }, 180_000);

  test('bad masks are clear 400s and change nothing; another user gets 404', async () => {
    const uuid = await analyse(seller);
    const cutout = await cutoutOf(seller, uuid);
    const put = (mask: string, userId = seller) => as(suite.app.app, userId).put(`/image-gen/cutout/${uuid}`, { mask });

    const jpeg = await sharp({
      create: { width: cutout.width, height: cutout.height, channels: 3, background: '#ffffff' },
    })
      .jpeg()
      .toBuffer();
    const notPng = await put(jpeg.toString('base64'));
    expect(notPng.status).toBe(400);
    expect(notPng.body.error).toBe(MASK_NOT_PNG_MESSAGE);

    const truncated = Buffer.from(cutout.mask, 'base64').subarray(0, 40);
    const broken = await put(truncated.toString('base64'));
    expect(broken.status).toBe(400);
    expect(broken.body.error).toBe(MASK_UNREADABLE_MESSAGE);

    const small = await grayPng(Buffer.alloc(64 * 48, 255), 64, 48);
    const wrongSize = await put(small.toString('base64'));
    expect(wrongSize.status).toBe(400);
    expect(wrongSize.body.error).toBe(
      `The mask must be ${cutout.width}×${cutout.height} pixels, the size of the photo's cut-out; this one is 64×48.`,
    );

    const tooLarge = await put('A'.repeat(Math.ceil(limits.maxMaskBytes / 3) * 4 + 4));
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.error).toMatch(/mask.*too large/i);

    const nothingKept = await put(
      (await grayPng(Buffer.alloc(cutout.width * cutout.height, 0), cutout.width, cutout.height)).toString('base64'),
    );
    expect(nothingKept.status).toBe(400);
    expect(nothingKept.body.error).toBe(MASK_KEEPS_NOTHING_MESSAGE);

    const notBase64 = await put('this is not base64!');
    expect(notBase64.status).toBe(400);

    const full = await grayPng(Buffer.alloc(cutout.width * cutout.height, 255), cutout.width, cutout.height);
    expect((await put(full.toString('base64'), stranger)).status).toBe(404);
    expect((await as(suite.app.app, stranger).get(`/image-gen/cutout/${uuid}`)).status).toBe(404);
    expect(
      (await as(suite.app.app, stranger).patch(`/image-gen/analysis/${uuid}`, { category: 'electronics' })).status,
    ).toBe(404);

    // Nothing changed: the stored matte and the analysis are as they were.
    expect(await cutoutOf(seller, uuid)).toEqual(cutout);
    expect(await generations().findOne({ uuid })).toMatchObject({ category: 'kitchen', cutout: { corrected: false } });
  }, 120_000);

  test('name and category: validated, saved, and the category picks the looks', async () => {
    const uuid = await analyse(seller);
    const patch = (body: object) => as(suite.app.app, seller).patch(`/image-gen/analysis/${uuid}`, body);

    const unknown = await patch({ category: 'spaceships' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe(UNKNOWN_CATEGORY_MESSAGE);
    expect((await patch({ object: '   ' })).status).toBe(400);
    expect((await patch({ object: 'x'.repeat(limits.productNameMaxLength + 1) })).status).toBe(400);
    expect((await patch({})).status).toBe(400);

    const saved = await patch({ object: '  Ceramic mug with pink frame ', category: 'electronics' });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({
      generation_uuid: uuid,
      object: 'Ceramic mug with pink frame',
      category: 'electronics',
    });
    expect((await patch({ object: 'Ceramic mug' })).body).toMatchObject({
      object: 'Ceramic mug',
      category: 'electronics',
    });

    const started = await as(suite.app.app, seller).post('/imageGenFromId', { id: uuid, numGenerates: 5 });
    expect(started.status).toBe(200);
    const record = await generations().findOne({ uuid });
    expect(record?.category).toBe('electronics');
    // Five looks from the electronics family's palettes, not the kitchen's the photo was analysed as.
    const techPalettes = familyOf('electronics').flatMap((look) => look.palettes.map((palette) => palette.backdrop));
    const kitchenOnly = familyOf('kitchen')
      .flatMap((look) => look.palettes.map((palette) => palette.backdrop))
      .filter((backdrop) => !techPalettes.includes(backdrop));
    const backdrops = record!.variations.map((variation) => variation.recipe.palette.backdrop);
    for (const backdrop of backdrops) expect(techPalettes).toContain(backdrop);
    expect(backdrops.some((backdrop) => kitchenOnly.includes(backdrop))).toBe(false);

    // Created from: no more corrections, in clear words.
    const late = await patch({ category: 'kitchen' });
    expect(late.status).toBe(409);
    expect(late.body.error).toBe(ALREADY_CREATED_MESSAGE);
    await waitForGeneration(suite.app.app, seller, uuid);
    const preset = await as(suite.app.app, seller).post('/style-presets', {
      generation_uuid: uuid,
      image_index: 1,
      preset_name: 'Tech look',
    });
    expect(preset.body).toMatchObject({ category_name: 'electronics' });
  }, 240_000);

  test("the seller's mask is used for the image, also with a preset; after Create it is a 409", async () => {
    const uuid = await analyse(seller);
    const cutout = await cutoutOf(seller, uuid);
    const { png, kept } = await maskKeepingLeftFrame(cutout);
    // The matte left the frame out: the seller's brush adds it back.
    expect(kept).toBeGreaterThan(cutout.height * 10);

    const saved = await as(suite.app.app, seller).put(`/image-gen/cutout/${uuid}`, { mask: png.toString('base64') });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ generation_uuid: uuid, corrected: true, width: cutout.width });
    const reread = await cutoutOf(seller, uuid);
    expect(reread.corrected).toBe(true);
    const { data: stored } = await sharp(Buffer.from(reread.mask, 'base64'))
      .extractChannel(0)
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(stored[cutout.width * Math.round(cutout.height / 2) + 2]).toBe(255);

    // Same look as the automatic cut-out's image (its preset), so only the mask differs.
    const corrected = await createdImage(seller, uuid, [autoPreset]);
    const magenta = await magentaPixels(corrected);
    expect(magenta).toBeGreaterThan(2000);
    expect(magenta).toBeGreaterThan((await magentaPixels(autoImage)) * 20);

    const late = await as(suite.app.app, seller).put(`/image-gen/cutout/${uuid}`, { mask: png.toString('base64') });
    expect(late.status).toBe(409);
    expect(late.body.error).toBe(ALREADY_CREATED_MESSAGE);
  }, 180_000);

  test('a generation recorded before mattes were stored is segmented by the worker as before', async () => {
    const uuid = await analyse(seller);
    await generations().updateOne({ uuid }, { $set: { cutout: null } });
    expect((await as(suite.app.app, seller).get(`/image-gen/cutout/${uuid}`)).status).toBe(404);
    const image = await createdImage(seller, uuid);
    expect(await magentaPixels(image)).toBeLessThan(50);
  }, 180_000);

  test('the renderer cuts by a stored matte without segmenting, and finds the same product', async () => {
    const uuid = await analyse(stranger);
    const generation = (await generations().findOne({ uuid }))!;
    const store = stack.objectStore();
    const read = async (key: string) => Buffer.concat(await (await store.getObjectStream(key)).toArray());
    const original = await read(generation.original_key);
    const matte = await read(generation.cutout!.key);
    const studio = new StudioRenderer(await loadModelRuntime(await ensureModels(SHARED_MODELS_DIR, undefined)), {
      outputSize: 2048,
      previewSize: 1024,
      watermarkText: 'ProductGen',
    });

    const byMatte: StageTimes = {};
    const cut = await studio.prepare(original, byMatte, matte);
    // By the matte the photo is decoded and cut on the pixel thread in one step: no segmentation.
    expect(Object.keys(byMatte)).toEqual(['matte']);
    const segmentedTimes: StageTimes = {};
    const segmented = await studio.prepare(original, segmentedTimes);
    expect(Object.keys(segmentedTimes).sort()).toEqual(['decode', 'segment']);

    const boxOf = (product: typeof cut) => ({
      left: product.crop.left + product.box.left,
      top: product.crop.top + product.box.top,
      right: product.crop.left + product.box.right,
      bottom: product.crop.top + product.box.bottom,
    });
    const a = boxOf(cut);
    const b = boxOf(segmented);
    const overlap =
      Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) *
      Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
    const area = (box: typeof a) => (box.right - box.left) * (box.bottom - box.top);
    expect(overlap / (area(a) + area(b) - overlap)).toBeGreaterThan(0.9);
  }, 120_000);
});
