import express from 'express';
import {
  fillPath,
  generationInternalRoutes,
  isBatchPhotoKey,
  NOT_A_BATCH_PHOTO_MESSAGE,
  routePaths,
  type BulkGeneration,
  type CreateBulkGenerationRequest,
  type CreateBulkGenerationResponse,
} from '@productgen/contracts';
import { AppError, errorHandler, serveRoute, type ObjectStore } from '@productgen/service-kit';

/**
 * A stand-in of generation's internal API for bulk's tests (kept in test-kit so that the contract suite in tests/ can
 * check it without importing another workspace's tests), on a real object store: it reads a batch photo by
 * reference as generation does (only the batch's own prefix in the batch photos' bucket), stores the original in its
 * images bucket, holds what it is told its analysis is unsure of, and renders when the test says so. Nothing is
 * analysed or drawn. `tests/integration/contracts/generation-internal.contract.test.ts` runs the same contract suite
 * against it as against the real service.
 */
export interface GenerationStandIn {
  app: express.Express;
  /** Credits given back (`<generation uuid>:<index>`), as generation asks billing to. */
  givenBack: string[];
  /** Requests outside generation's internal routes (its download route included), as `METHOD /path`. */
  elsewhere: string[];
  /** The stand-in's analysis is unsure of this photo (the real service finds out by analysing it). */
  unsureOf(photoKey: string): void;
  /** The product renders all its images (test data) but `withdrawn` ones, which generation no longer lists. */
  render(generationUuid: string, options?: { withdrawn?: number[] }): Promise<number[]>;
  /** The bytes of an image the stand-in renders. */
  imageBytes(generationUuid: string, index: number): Buffer;
}

interface StoodIn {
  request: CreateBulkGenerationRequest;
  answer: CreateBulkGenerationResponse;
  state: 'held' | 'queued' | 'rendered' | 'failed' | 'dropped';
  listed: number[];
}

const NOT_WAITING = 'This product is no longer waiting for your check.';
const FAILED_PHOTO = 'The file is not a JPEG or PNG photo.';

const isPhoto = (head: Buffer) =>
  head.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])) ||
  head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

async function bytesOf(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** The stores a stand-in works on, asked for when first needed (a bulk test bed makes them after the stand-in). */
export type StandInStores = () => { batchPhotos: ObjectStore; images: ObjectStore };

export function createGenerationStandIn(stores: StandInStores): GenerationStandIn {
  const generations = new Map<string, StoodIn>();
  const unsure = new Set<string>();
  const givenBack: string[] = [];
  const elsewhere: string[] = [];
  const originalKey = (uuid: string) => `originals/${uuid}.jpg`;
  const imageKey = (uuid: string, index: number) => `images/${uuid}/${index}-final.jpg`;
  const imageBytes = (uuid: string, index: number) => Buffer.from(`final image ${index} of ${uuid}`);
  const giveBack = (uuid: string, count: number) => {
    for (let index = 0; index < count; index += 1) givenBack.push(`${uuid}:${index}`);
  };

  function view(uuid: string, generation: StoodIn): BulkGeneration {
    const bucket = stores().images.bucket;
    const original = fillPath(routePaths.downloadImage.path, { id: uuid, index: -1 });
    return {
      id: uuid,
      generation_uuid: uuid,
      created_at: '2026-11-01T10:00:00.000Z',
      images: generation.listed.map((index) => ({
        id: `${uuid}-${index}`,
        input_url: original,
        output_url: `${fillPath(routePaths.downloadImage.path, { id: uuid, index })}?v=final`,
        metadata: { fixes_done: [true, true, true] },
      })),
      metadata: {
        category: generation.answer.category,
        num_images: generation.request.count,
        status: { held: 'pending', queued: 'processing', rendered: 'completed', failed: 'failed', dropped: 'failed' }[
          generation.state
        ] as BulkGeneration['metadata']['status'],
        error: generation.answer.error,
      },
      original_image_url: original,
      original_filename: generation.request.original_filename,
      original_extension: 'jpg',
      downloads: {
        original: { bucket, key: originalKey(uuid) },
        images: generation.listed.map((index) => ({ index, bucket, key: imageKey(uuid, index) })),
      },
    };
  }

  const app = express();
  app.use(express.json({ limit: '32mb' }));
  serveRoute(app, generationInternalRoutes.createBulkGeneration, async ({ body }) => {
    const known = generations.get(body.generation_uuid);
    if (known) return known.answer;
    const { batchPhotos, images } = stores();
    const { bucket, key } = body.photo;
    if (bucket !== batchPhotos.bucket || !isBatchPhotoKey(key, body.userId, body.bulk_job_uuid)) {
      throw AppError.badRequest(NOT_A_BATCH_PHOTO_MESSAGE);
    }
    if (!(await batchPhotos.stat(key))) throw AppError.notFound('The photo was not found.');
    const photo = await bytesOf(await batchPhotos.getObjectStream(key));
    let answer: CreateBulkGenerationResponse;
    let state: StoodIn['state'];
    if (!isPhoto(photo)) {
      giveBack(body.generation_uuid, body.count);
      state = 'failed';
      answer = {
        generation_uuid: body.generation_uuid,
        outcome: 'failed',
        category: null,
        images: 0,
        error: FAILED_PHOTO,
      };
    } else {
      await images.putObject(originalKey(body.generation_uuid), photo, { contentType: 'image/jpeg' });
      state = body.hold_uncertain && unsure.has(key) ? 'held' : 'queued';
      answer = {
        generation_uuid: body.generation_uuid,
        outcome: state === 'held' ? 'held' : 'queued',
        category: 'other',
        images: body.count,
        error: null,
        object: 'product',
        check_reasons: state === 'held' ? ['cutout'] : [],
      };
    }
    generations.set(body.generation_uuid, { request: body, answer, state, listed: [] });
    return answer;
  });
  const held = (uuid: string, userId: string) => {
    const generation = generations.get(uuid);
    if (!generation || generation.request.userId !== userId) throw AppError.notFound('Generation not found');
    if (generation.state !== 'held') throw AppError.conflict(NOT_WAITING);
    return generation;
  };
  serveRoute(app, generationInternalRoutes.releaseHeldBulkGeneration, ({ params, body }) => {
    const generation = held(params.generationUuid, body.userId);
    generation.state = 'queued';
    return {
      generation_uuid: params.generationUuid,
      outcome: 'queued' as const,
      images: generation.request.count,
      credits_returned: 0,
    };
  });
  serveRoute(app, generationInternalRoutes.dropHeldBulkGeneration, ({ params, body }) => {
    const generation = held(params.generationUuid, body.userId);
    generation.state = 'dropped';
    giveBack(params.generationUuid, generation.request.count);
    return { generation_uuid: params.generationUuid, credits_returned: generation.request.count };
  });
  serveRoute(app, generationInternalRoutes.redoBulkGeneration, ({ params, body }) => {
    const source = generations.get(params.generationUuid);
    if (!source || source.request.userId !== body.userId) throw AppError.notFound('Generation not found');
    if (source.state !== 'rendered') throw AppError.conflict('This product is not finished yet.');
    const request = { ...source.request, generation_uuid: body.new_generation_uuid, count: body.count };
    const answer = { ...source.answer, generation_uuid: body.new_generation_uuid, images: body.count };
    generations.set(body.new_generation_uuid, { request, answer, state: 'queued', listed: [] });
    return { generation_uuid: body.new_generation_uuid, outcome: 'queued' as const, images: body.count };
  });
  serveRoute(app, generationInternalRoutes.listBulkGenerations, ({ params }) => ({
    generations: [...generations]
      .filter(([, { request }]) => request.userId === params.userId && request.bulk_job_uuid === params.bulkJobUuid)
      .map(([uuid, generation]) => view(uuid, generation)),
  }));
  serveRoute(app, generationInternalRoutes.stylePresetsById, ({ query }) => {
    // The stand-in knows no presets: every id is unknown.
    throw AppError.notFound(`Style preset ${query.ids[0]} not found`);
  });
  // Generation's public download route serves what the list references; bulk must not need it (recorded).
  app.get(routePaths.downloadImage.path, async (req, res) => {
    elsewhere.push(`${req.method} ${req.path}`);
    const uuid = String(req.params.id);
    const index = Number(req.params.index);
    const generation = generations.get(uuid);
    const key = index === -1 ? originalKey(uuid) : generation?.listed.includes(index) ? imageKey(uuid, index) : null;
    if (!generation || !key) throw AppError.notFound('Image not found');
    res.type('image/jpeg').send(await bytesOf(await stores().images.getObjectStream(key)));
  });
  app.use((req, _res, next) => {
    elsewhere.push(`${req.method} ${req.path}`);
    next(AppError.notFound('Not Found'));
  });
  app.use(errorHandler());

  return {
    app,
    givenBack,
    elsewhere,
    unsureOf: (key) => unsure.add(key),
    imageBytes,
    async render(uuid, { withdrawn = [] } = {}) {
      const generation = generations.get(uuid);
      if (!generation) throw new Error(`no generation ${uuid} to render`);
      const made = Array.from({ length: generation.request.count }, (_unused, index) => index);
      for (const index of made) {
        await stores().images.putObject(imageKey(uuid, index), imageBytes(uuid, index), { contentType: 'image/jpeg' });
      }
      generation.state = 'rendered';
      generation.listed = made.filter((index) => !withdrawn.includes(index));
      return made;
    },
  };
}
