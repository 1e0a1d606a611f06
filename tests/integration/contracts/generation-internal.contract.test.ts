import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInProcessBroker, createInProcessBus } from '@productgen/bus';
import {
  batchPhotoKey,
  fillPath,
  generationInternalRoutes,
  NOT_A_BATCH_PHOTO_MESSAGE,
  routePaths,
  type BatchPhotoRef,
  type GenerationObjectRef,
} from '@productgen/contracts';
import { startEmbeddedS3 } from '@productgen/embedded-s3';
import { createGenerationService, generationConfigSchema } from '@productgen/generation-service';
import {
  createInternalApiClient,
  createLogger,
  createObjectStore,
  createServiceIdentity,
  loadConfig,
  type InternalApiClient,
  type ObjectStore,
} from '@productgen/service-kit';
import { freePort } from '@productgen/service-kit/local-ports';
import { closeStudioThreads } from '@productgen/studio-engine';
import { serviceCallHeaders, TEST_SERVICE_AUTH_SECRET } from '@productgen/test-kit';
import { BillingFixture } from '@productgen/test-kit/billing-fixture';
import { MongoFixture } from '@productgen/test-kit/mongo-fixture';
import { createGenerationStandIn } from '@productgen/test-kit/generation-stand-in';
import { refusal } from '@productgen/test-kit/internal-api';
import { LoopbackServers } from '@productgen/test-kit/loopback-servers';

// Generation's internal API (the calls bulk makes for a batch) as the contracts declare it, checked against the real
// generation service: a product handed over by reference to its photo in bulk's bucket, only keys of the batch's own
// prefix read; idempotent by generation uuid; the batch's generations listed; held products released or dropped once;
// presets by id; each listed generation's downloads by reference, the objects its download route serves. It runs
// against every implementation of this API: the real service, and the stand-in bulk's Download All test uses.
jest.setTimeout(300_000);

const PHOTOS = path.resolve(__dirname, '../../../../shared/photos');
const MODELS = path.resolve(__dirname, '../../../../shared/models');
const BATCH_BUCKET = 'contract-bulk';

interface RunningGeneration {
  url: string;
  /** Bulk's bucket, where a batch's photos wait for the hand-over. */
  batchPhotos: ObjectStore;
  /** A user whose batch reserved `count` credits for a new generation uuid (bulk's batch reservation). */
  reserved(userId: string, count: number): string;
  /** The credits given back for a generation so far (`<uuid>:<index>`). */
  givenBack(generationUuid: string): string[];
  /** An object of generation's bucket, as bulk's Download All reads it by a listed reference. */
  readObject(ref: GenerationObjectRef): Promise<Buffer>;
  /** What the user's download of an image (-1: the original) serves. */
  served(userId: string, generationUuid: string, index: number): Promise<Buffer>;
  /** The photo is one analysis is unsure of: the real service finds out by analysing it, a stand-in is told. */
  unsureOf(photo: BatchPhotoRef): void;
  close(): Promise<void>;
}

interface Implementation {
  name: string;
  start(): Promise<RunningGeneration>;
}

const realGeneration: Implementation = {
  name: 'generation service',
  async start() {
    const dir = await mkdtemp(path.join(tmpdir(), 'generation-contract-'));
    const mongo = new MongoFixture('generation-contract');
    await mongo.start();
    const s3 = await startEmbeddedS3({ dataDir: path.join(dir, 's3') });
    const store = (bucket: string) =>
      createObjectStore({ endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket });
    const images = store('contract-generation');
    const batchPhotos = store(BATCH_BUCKET);
    await batchPhotos.ensureBucket();
    const billing = new BillingFixture();
    await billing.start();
    const broker = createInProcessBroker();
    const logger = createLogger({ service: 'generation-contract', level: 'silent' });
    const bus = createInProcessBus(broker, { logger });
    const connection = await mongo.connect('generation');
    const config = loadConfig(generationConfigSchema, {
      NODE_ENV: 'test',
      SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET,
      MODELS_DIR: MODELS,
      // Auth does not answer here: the shop's hints are then none, as when auth is down.
      AUTH_URL: `http://127.0.0.1:${await freePort()}`,
      BATCH_PHOTOS_BUCKET: BATCH_BUCKET,
      GENERATION_WORKER: 'off',
      BILLING_URL: billing.url,
    });
    const service = await createGenerationService({
      config,
      logger,
      mongo: connection,
      bus,
      objectStore: images,
      batchPhotos,
    });
    await service.start();
    const servers = new LoopbackServers();
    const url = await servers.listen(service.app);
    return {
      url,
      batchPhotos,
      reserved(userId, count) {
        const uuid = randomUUID();
        billing.reservations.set(uuid, { userId, count, answer: { balance: 0, watermark: true } });
        return uuid;
      },
      givenBack: (uuid) => [...billing.refunds].filter((key) => key.startsWith(uuid)).sort(),
      readObject: (ref) => readGenerationObject(images, ref),
      served: (userId, generationUuid, index) => downloaded(url, userId, generationUuid, index),
      unsureOf: () => undefined,
      async close() {
        await servers.close();
        await service.stop();
        await closeStudioThreads();
        await bus.close();
        await broker.close();
        await billing.stop();
        await s3.stop();
        await mongo.stop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  },
};

/** An object of generation's bucket by a listed reference, as bulk's Download All reads it. */
async function readGenerationObject(images: ObjectStore, ref: GenerationObjectRef): Promise<Buffer> {
  if (ref.bucket !== images.bucket) throw new Error(`not generation's bucket: ${ref.bucket}`);
  const chunks: Buffer[] = [];
  for await (const chunk of await images.getObjectStream(ref.key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A download of an image (-1: the original) as the user. */
async function downloaded(url: string, userId: string, generationUuid: string, index: number): Promise<Buffer> {
  const route = fillPath(routePaths.downloadImage.path, { id: generationUuid, index });
  const response = await fetch(`${url}${route}`, { headers: serviceCallHeaders(userId) });
  if (response.status !== 200) throw new Error(`the download answered ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

/** The stand-in of generation bulk's tests use (packages/test-kit/src/generation-stand-in.ts) on the embedded S3 server. */
const standIn: Implementation = {
  name: "bulk's stand-in",
  async start() {
    const dir = await mkdtemp(path.join(tmpdir(), 'generation-stand-in-contract-'));
    const s3 = await startEmbeddedS3({ dataDir: path.join(dir, 's3') });
    const store = (bucket: string) =>
      createObjectStore({ endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket });
    const images = store('contract-generation');
    const batchPhotos = store(BATCH_BUCKET);
    await images.ensureBucket();
    await batchPhotos.ensureBucket();
    const generation = createGenerationStandIn(() => ({ batchPhotos, images }));
    const servers = new LoopbackServers();
    const url = await servers.listen(generation.app);
    return {
      url,
      batchPhotos,
      reserved: () => randomUUID(),
      givenBack: (uuid) => generation.givenBack.filter((key) => key.startsWith(uuid)).sort(),
      readObject: (ref) => readGenerationObject(images, ref),
      served: (userId, generationUuid, index) => downloaded(url, userId, generationUuid, index),
      unsureOf: (photo) => generation.unsureOf(photo.key),
      async close() {
        await servers.close();
        await s3.stop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  },
};

describe.each([realGeneration, standIn])('generation internal API: $name', (implementation) => {
  let generation: RunningGeneration;
  let client: InternalApiClient<typeof generationInternalRoutes>;
  let mug: Buffer;
  const user = `user${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const job = randomUUID();
  let photos = 0;

  beforeAll(async () => {
    generation = await implementation.start();
    client = createInternalApiClient(generationInternalRoutes, {
      baseUrl: generation.url,
      target: 'generation',
      // As bulk's INTERNAL_TIMEOUT_MS: a hand-over decodes and analyses the photo (seconds on a loaded machine).
      timeoutMs: 60_000,
      identity: createServiceIdentity(TEST_SERVICE_AUTH_SECRET, 'bulk'),
    });
    mug = await readFile(path.join(PHOTOS, 'demo/mug.jpg'));
  });
  afterAll(async () => {
    await generation?.close();
  });

  /** The photo stored as bulk stores it before a hand-over; its reference. */
  async function stored(photo: Buffer, owner = user, bulkJob = job): Promise<BatchPhotoRef> {
    photos += 1;
    const key = batchPhotoKey(owner, bulkJob, photos, 'jpg');
    await generation.batchPhotos.putObject(key, photo, { contentType: 'image/jpeg', size: photo.length });
    return { bucket: generation.batchPhotos.bucket, key };
  }

  const handOver = async (generationUuid: string, photo: BatchPhotoRef, count = 1, holdUncertain = false) =>
    client.createBulkGeneration({
      body: {
        userId: user,
        bulk_job_uuid: job,
        generation_uuid: generationUuid,
        original_filename: 'mug.jpg',
        photo,
        count,
        presets: [],
        watermark: true,
        hold_uncertain: holdUncertain,
      },
    });

  test('a product handed over by reference is queued; a repeat answers the same; the batch lists it', async () => {
    const uuid = generation.reserved(user, 2);
    const photo = await stored(mug);
    const first = await handOver(uuid, photo, 2);
    expect(first).toMatchObject({ generation_uuid: uuid, outcome: 'queued', images: 2, error: null });
    expect(await handOver(uuid, photo, 2)).toEqual(first);
    expect(generation.givenBack(uuid)).toEqual([]);
    const { generations } = await client.listBulkGenerations({ params: { userId: user, bulkJobUuid: job } });
    expect(generations.map((listed) => listed.generation_uuid)).toContain(uuid);
    const listed = generations.find((found) => found.generation_uuid === uuid)!;
    expect(listed).toMatchObject({ original_filename: 'mug.jpg', original_extension: 'jpg' });
    // The objects its downloads serve, by reference (Download All reads them): the original as the download route
    // serves it; no image yet (nothing rendered), as the listed images.
    expect(listed.downloads.images).toEqual([]);
    expect(listed.images).toEqual([]);
    expect(await generation.readObject(listed.downloads.original)).toEqual(await generation.served(user, uuid, -1));
  });

  test("only a photo of the batch's own prefix in bulk's bucket is read: 400 otherwise, 404 when missing", async () => {
    const uuid = generation.reserved(user, 1);
    const own = await stored(mug);
    for (const photo of [
      await stored(mug, `${user}x`),
      await stored(mug, user, randomUUID()),
      { bucket: 'another-bucket', key: own.key },
      { bucket: own.bucket, key: 'uploads/some-job.zip' },
    ]) {
      expect(await refusal(handOver(uuid, photo))).toEqual({ status: 400, message: NOT_A_BATCH_PHOTO_MESSAGE });
    }
    const missing = await refusal(handOver(uuid, { ...own, key: batchPhotoKey(user, job, 999_999, 'jpg') }));
    expect(missing.status).toBe(404);
    expect(generation.givenBack(uuid)).toEqual([]);
  });

  test('a stored file that is not a photo fails the product, every credit given back', async () => {
    const uuid = generation.reserved(user, 2);
    const answer = await handOver(uuid, await stored(Buffer.from('%PDF-1.7 not a photo')), 2);
    expect(answer).toMatchObject({ outcome: 'failed', images: 0 });
    expect(generation.givenBack(uuid)).toEqual([`${uuid}:0`, `${uuid}:1`]);
  });

  test('held products: released or dropped exactly once (409 after); unknown ones 404', async () => {
    const blurred = await (await import('sharp')).default(mug).blur(25).jpeg().toBuffer();
    const held = generation.reserved(user, 1);
    const heldPhoto = await stored(blurred);
    generation.unsureOf(heldPhoto);
    expect((await handOver(held, heldPhoto, 1, true)).outcome).toBe('held');
    expect(
      await client.releaseHeldBulkGeneration({ params: { generationUuid: held }, body: { userId: user } }),
    ).toEqual({ generation_uuid: held, outcome: 'queued', images: 1, credits_returned: 0 });
    const again = await refusal(
      client.releaseHeldBulkGeneration({ params: { generationUuid: held }, body: { userId: user } }),
    );
    expect(again.status).toBe(409);

    const dropped = generation.reserved(user, 2);
    const droppedPhoto = await stored(blurred);
    generation.unsureOf(droppedPhoto);
    expect((await handOver(dropped, droppedPhoto, 2, true)).outcome).toBe('held');
    expect(
      await client.dropHeldBulkGeneration({ params: { generationUuid: dropped }, body: { userId: user } }),
    ).toEqual({ generation_uuid: dropped, credits_returned: 2 });
    expect(generation.givenBack(dropped)).toEqual([`${dropped}:0`, `${dropped}:1`]);
    expect(
      (await refusal(client.dropHeldBulkGeneration({ params: { generationUuid: dropped }, body: { userId: user } })))
        .status,
    ).toBe(409);
    expect(
      (
        await refusal(
          client.releaseHeldBulkGeneration({ params: { generationUuid: randomUUID() }, body: { userId: user } }),
        )
      ).status,
    ).toBe(404);
  });

  test('presets by id: an unknown one is a 404', async () => {
    const missing = await refusal(client.stylePresetsById({ params: { userId: user }, query: { ids: 'p-unknown' } }));
    expect(missing.status).toBe(404);
  });
});
