import type { Express, Request, Response } from 'express';
import yazl from 'yazl';
import { generationInternalRoutes, productCategories, routes } from '@productgen/contracts';
import {
  AppError,
  createHttpApp,
  parseRequest,
  requireGatewayUser as requireUser,
  serveRoute,
  type Logger,
  type ObjectStore,
  type ReadinessCheck,
  type ServiceIdentity,
  type UsageQuota,
} from '@productgen/service-kit';
import { bulkGenerationView, type BulkCreation } from './bulk-creation';
import type { CreationFlow } from './creation';
import type { GenerationRepository } from './data/generation-repository';
import type { GenerationDocument, StylePresetDocument } from './data/schemas';
import type { PresetRepository } from './data/preset-repository';
import {
  generationView,
  isWithdrawn,
  ORIGINAL_INDEX,
  recordsView,
  REFUNDED_IMAGE_MESSAGE,
  servedKey,
  statusView,
} from './domain/generation';
import { styleRecipeSchema } from '@productgen/studio-engine';

/** The SPEC's wording for a download link built without an image index. */
export const IMAGE_INDEX_REQUIRED_MESSAGE = 'imageIndex is required for image type download';
/** Base64 of the largest accepted upload (12 MiB) plus JSON around it. */
export const GENERATION_BODY_LIMIT = '17mb';

export interface GenerationAppDeps {
  creation: CreationFlow;
  /** Batch products handed over by the bulk service. */
  bulk: BulkCreation;
  generations: GenerationRepository;
  presets: PresetRepository;
  objectStore: ObjectStore;
  /** Per-user limits of the expensive routes, shared by every replica. */
  quotas: { analysis: UsageQuota; cutoutSaves: UsageQuota };
  now: () => Date;
  readiness: Record<string, ReadinessCheck>;
  logger: Logger;
  /** Verifies every caller (the gateway, other services). */
  serviceIdentity: ServiceIdentity;
}

function presetView(preset: StylePresetDocument) {
  return { id: String(preset._id), preset_name: preset.name, category_name: preset.category };
}

function attachment(res: Response, filename: string, contentType: string): void {
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
  // The same link shows the base image and later the fixed one; never serve a stale copy.
  res.setHeader('Cache-Control', 'private, no-cache');
  res.setHeader('X-Content-Type-Options', 'nosniff');
}

const shortId = (uuid: string) => uuid.slice(0, 8);

export function createGenerationApp(deps: GenerationAppDeps): Express {
  const { creation, generations, presets, objectStore, quotas, now } = deps;
  const app = createHttpApp({
    name: 'generation',
    logger: deps.logger,
    readiness: deps.readiness,
    bodyLimit: GENERATION_BODY_LIMIT,
    serviceIdentity: deps.serviceIdentity,
  });

  async function ownedGeneration(uuid: string, userId: string): Promise<GenerationDocument> {
    const generation = await generations.findOwned(uuid, userId);
    if (!generation) throw AppError.notFound('Generation not found');
    return generation;
  }

  // ---- categories and analysis

  serveRoute(app, routes.listCategories, () => [...productCategories]);

  serveRoute(app, routes.analyzeImage, async (input, req) => {
    const userId = requireUser(req);
    await quotas.analysis.take(userId, now());
    return creation.analyze(userId, Buffer.from(input.body.image, 'base64'), input.body.filename);
  });

  // ---- the seller's corrections of an analysis, before Create

  serveRoute(app, routes.getCutout, async (input, req) => {
    const userId = requireUser(req);
    return creation.cutout(userId, input.params.generation_uuid);
  });

  serveRoute(app, routes.saveCutout, async (input, req) => {
    const userId = requireUser(req);
    await quotas.cutoutSaves.take(userId, now());
    return creation.saveCutout(userId, input.params.generation_uuid, Buffer.from(input.body.mask, 'base64'));
  });

  serveRoute(app, routes.correctAnalysis, async (input, req) => {
    const userId = requireUser(req);
    return creation.correctAnalysis(userId, input.params.generation_uuid, input.body);
  });

  serveRoute(app, routes.imageGen, async (input, req) => {
    const userId = requireUser(req);
    const body = input.body;
    await quotas.analysis.take(userId, now());
    const analysis = await creation.analyze(userId, Buffer.from(body.base64str, 'base64'));
    return creation.create({ userId, generationUuid: analysis.generation_uuid, numGenerates: body.numGenerates });
  });

  serveRoute(app, routes.imageGenFromId, async (input, req) => {
    const userId = requireUser(req);
    const body = input.body;
    return creation.create({ userId, generationUuid: body.id, numGenerates: body.numGenerates, presets: body.presets });
  });

  // ---- status and lists

  serveRoute(app, routes.generationStatus, async (input, req) => {
    const userId = requireUser(req);
    return statusView(await ownedGeneration(input.params.generation_uuid, userId));
  });

  serveRoute(app, routes.listGenerations, async (input, req) => {
    const userId = requireUser(req);
    const { items, total } = await generations.listStarted(userId, input.query.page, input.query.pageSize);
    return { items: items.map(generationView), total };
  });

  serveRoute(app, routes.generationDetail, async (input, req) => {
    const userId = requireUser(req);
    return generationView(await ownedGeneration(input.params.id, userId));
  });

  serveRoute(app, routes.listRecords, async (_input, req) => {
    const userId = requireUser(req);
    return { records: recordsView(await generations.listAllStarted(userId)) };
  });

  // ---- style presets

  serveRoute(app, routes.listStylePresets, async (input, req) => {
    const userId = requireUser(req);
    const found = await presets.list(userId, input.query.category);
    return { success: true as const, presets: found.map(presetView) };
  });

  serveRoute(app, routes.createStylePreset, async (input, req) => {
    const userId = requireUser(req);
    const body = input.body;
    const generation = await ownedGeneration(body.generation_uuid, userId);
    const variation = generation.variations.find((entry) => entry.index === body.image_index);
    const recipe = variation ? styleRecipeSchema.safeParse(variation.recipe) : undefined;
    if (!variation || !recipe?.success) throw AppError.notFound('Image not found');
    const preset = await presets.create({
      userId,
      name: body.preset_name,
      category: generation.category ?? 'other',
      recipe: recipe.data,
      sourceGenerationUuid: generation.uuid,
      sourceImageIndex: body.image_index,
    });
    return presetView(preset);
  });

  serveRoute(app, routes.getStylePreset, async (input, req) => {
    const userId = requireUser(req);
    const preset = await presets.findOwned(input.params.id, userId);
    if (!preset) throw AppError.notFound('Style preset not found');
    return presetView(preset);
  });

  // ---- downloads (plain links: the gateway accepts the session_key cookie on these routes)

  const missingIndex = (_req: Request) => {
    throw AppError.badRequest(IMAGE_INDEX_REQUIRED_MESSAGE);
  };
  app.get('/download/:id/image', missingIndex);
  app.get('/download/:id/image/', missingIndex);

  app.get(routes.downloadImage.path, async (req, res) => {
    const userId = requireUser(req);
    if (!/^-?\d+$/.test(String(req.params.index ?? ''))) throw AppError.badRequest(IMAGE_INDEX_REQUIRED_MESSAGE);
    const { id, index } = parseRequest(routes.downloadImage, req).params;
    const generation = await ownedGeneration(id, userId);
    let key: string | null;
    let contentType = 'image/jpeg';
    let filename: string;
    if (index === ORIGINAL_INDEX) {
      key = generation.original_key;
      contentType = generation.original_content_type;
      filename = `productgen-${shortId(id)}-original.${contentType === 'image/png' ? 'png' : 'jpg'}`;
    } else {
      const image = generation.images[index];
      if (image && isWithdrawn(image)) throw AppError.gone(REFUNDED_IMAGE_MESSAGE);
      key = image ? servedKey(generation, image) : null;
      filename = `productgen-${shortId(id)}-${index + 1}.jpg`;
    }
    if (!key) throw AppError.notFound('Image not found');
    const stream = await objectStore.getObjectStream(key);
    attachment(res, filename, contentType);
    stream.on('error', (error) => res.destroy(error));
    stream.pipe(res);
  });

  app.get(routes.downloadGeneration.path, async (req, res) => {
    const userId = requireUser(req);
    const { id } = parseRequest(routes.downloadGeneration, req).params;
    const generation = await ownedGeneration(id, userId);
    const keys = generation.images
      .map((image) => ({ index: image.index, key: servedKey(generation, image) }))
      .filter((entry): entry is { index: number; key: string } => entry.key !== null);
    if (keys.length === 0) throw AppError.notFound('No images to download yet');
    // Open every object first, so a missing one is still a clean 404 rather than a broken zip.
    const streams = await Promise.all(
      keys.map(async (entry) => ({ ...entry, stream: await objectStore.getObjectStream(entry.key) })),
    );
    const zip = new yazl.ZipFile();
    for (const entry of streams) {
      entry.stream.on('error', (error) => res.destroy(error));
      // JPEGs are already compressed: store them as they are.
      zip.addReadStream(entry.stream, `productgen-${shortId(id)}-${entry.index + 1}.jpg`, { compress: false });
    }
    zip.end();
    attachment(res, `productgen-${shortId(id)}.zip`, 'application/zip');
    zip.outputStream.pipe(res);
  });

  // ---- internal (the bulk service; declared in the contracts' generationInternalRoutes)

  serveRoute(app, generationInternalRoutes.createBulkGeneration, (input) => deps.bulk.create(input.body));

  serveRoute(app, generationInternalRoutes.releaseHeldBulkGeneration, (input) =>
    deps.bulk.release(input.params.generationUuid, input.body),
  );

  serveRoute(app, generationInternalRoutes.redoBulkGeneration, (input) =>
    deps.bulk.redo(input.params.generationUuid, input.body),
  );

  serveRoute(app, generationInternalRoutes.dropHeldBulkGeneration, (input) =>
    deps.bulk.drop(input.params.generationUuid, input.body.userId),
  );

  serveRoute(app, generationInternalRoutes.listBulkGenerations, async (input) => {
    const found = await generations.listByBulkJob(input.params.userId, input.params.bulkJobUuid);
    return { generations: found.map((generation) => bulkGenerationView(generation, objectStore.bucket)) };
  });

  serveRoute(app, generationInternalRoutes.stylePresetsById, async (input) => {
    const found = await creation.resolvePresets(input.params.userId, input.query.ids);
    return {
      presets: found.map((preset) => ({ id: preset.id, preset_name: preset.name, category_name: preset.category })),
    };
  });

  return app.finalize();
}
