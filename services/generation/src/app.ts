import type { Express, Request, Response } from 'express';
import yazl from 'yazl';
import {
  routes,
  userIdSchema,
  validateRequest,
  type ApiRoute,
  type RouteResponse,
  type ValidatedRequest,
} from '@productgen/contracts';
import { AppError, createHttpApp, type Logger, type ObjectStore, type ReadinessCheck } from '@productgen/service-kit';
import type { CreationFlow } from './creation';
import type { GenerationRepository } from './data/generation-repository';
import type { GenerationDocument, StylePresetDocument } from './data/models';
import type { PresetRepository } from './data/preset-repository';
import { categories } from './domain/categories';
import { generationView, ORIGINAL_INDEX, recordsView, statusView } from './domain/generation';
import { styleRecipeSchema } from './domain/styles';

/** The SPEC's wording for a download link built without an image index. */
export const IMAGE_INDEX_REQUIRED_MESSAGE = 'imageIndex is required for image type download';
/** Header the gateway sets to the verified user; the gateway drops any client-sent one. */
export const USER_ID_HEADER = 'x-user-id';
/** Base64 of the largest accepted upload (12 MiB) plus JSON around it. */
export const GENERATION_BODY_LIMIT = '17mb';

export interface GenerationAppDeps {
  creation: CreationFlow;
  generations: GenerationRepository;
  presets: PresetRepository;
  objectStore: ObjectStore;
  readiness: Record<string, ReadinessCheck>;
  logger: Logger;
}

function parseRequest(route: ApiRoute, req: Request): ValidatedRequest {
  const result = validateRequest(route, { body: req.body, query: req.query, params: req.params });
  if (!result.ok) throw AppError.badRequest(result.message, { issues: result.issues });
  return result.data;
}

function reply<Route extends ApiRoute>(res: Response, route: Route, value: RouteResponse<Route>): void {
  res.json(route.response.parse(value));
}

/** The verified user the gateway forwards; without it the caller did not come through the gateway's check. */
function requireUser(req: Request): string {
  const parsed = userIdSchema.safeParse(req.get(USER_ID_HEADER));
  if (!parsed.success) throw AppError.unauthorized();
  return parsed.data;
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
  const { creation, generations, presets, objectStore } = deps;
  const app = createHttpApp({
    name: 'generation',
    logger: deps.logger,
    readiness: deps.readiness,
    bodyLimit: GENERATION_BODY_LIMIT,
  });

  async function ownedGeneration(uuid: string, userId: string): Promise<GenerationDocument> {
    const generation = await generations.findOwned(uuid, userId);
    if (!generation) throw AppError.notFound('Generation not found');
    return generation;
  }

  // ---- categories and analysis

  app.get(routes.listCategories.path, (_req, res) => {
    reply(res, routes.listCategories, [...categories]);
  });

  app.post(routes.analyzeImage.path, async (req, res) => {
    const userId = requireUser(req);
    const { image } = parseRequest(routes.analyzeImage, req).body as { image: string };
    reply(res, routes.analyzeImage, await creation.analyze(userId, Buffer.from(image, 'base64')));
  });

  app.post(routes.imageGen.path, async (req, res) => {
    const userId = requireUser(req);
    const body = parseRequest(routes.imageGen, req).body as { base64str: string; numGenerates: number };
    const analysis = await creation.analyze(userId, Buffer.from(body.base64str, 'base64'));
    reply(
      res,
      routes.imageGen,
      await creation.create({ userId, generationUuid: analysis.generation_uuid, numGenerates: body.numGenerates }),
    );
  });

  app.post(routes.imageGenFromId.path, async (req, res) => {
    const userId = requireUser(req);
    const body = parseRequest(routes.imageGenFromId, req).body as {
      id: string;
      numGenerates: number;
      presets?: string[];
    };
    reply(
      res,
      routes.imageGenFromId,
      await creation.create({
        userId,
        generationUuid: body.id,
        numGenerates: body.numGenerates,
        presets: body.presets,
      }),
    );
  });

  // ---- status and lists

  app.get(routes.generationStatus.path, async (req, res) => {
    const userId = requireUser(req);
    const { generation_uuid: uuid } = parseRequest(routes.generationStatus, req).params as { generation_uuid: string };
    reply(res, routes.generationStatus, statusView(await ownedGeneration(uuid, userId)));
  });

  app.get(routes.listGenerations.path, async (req, res) => {
    const userId = requireUser(req);
    const { page, pageSize } = parseRequest(routes.listGenerations, req).query as { page: number; pageSize: number };
    const { items, total } = await generations.listStarted(userId, page, pageSize);
    reply(res, routes.listGenerations, { items: items.map(generationView), total });
  });

  app.get(routes.generationDetail.path, async (req, res) => {
    const userId = requireUser(req);
    const { id } = parseRequest(routes.generationDetail, req).params as { id: string };
    reply(res, routes.generationDetail, generationView(await ownedGeneration(id, userId)));
  });

  app.get(routes.listRecords.path, async (req, res) => {
    const userId = requireUser(req);
    reply(res, routes.listRecords, { records: recordsView(await generations.listAllStarted(userId)) });
  });

  // ---- style presets

  app.get(routes.listStylePresets.path, async (req, res) => {
    const userId = requireUser(req);
    const { category } = parseRequest(routes.listStylePresets, req).query as { category?: string };
    const found = await presets.list(userId, category);
    reply(res, routes.listStylePresets, { success: true, presets: found.map(presetView) });
  });

  app.post(routes.createStylePreset.path, async (req, res) => {
    const userId = requireUser(req);
    const body = parseRequest(routes.createStylePreset, req).body as {
      generation_uuid: string;
      image_index: number;
      preset_name: string;
    };
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
    reply(res, routes.createStylePreset, presetView(preset));
  });

  app.get(routes.getStylePreset.path, async (req, res) => {
    const userId = requireUser(req);
    const { id } = parseRequest(routes.getStylePreset, req).params as { id: string };
    const preset = await presets.findOwned(id, userId);
    if (!preset) throw AppError.notFound('Style preset not found');
    reply(res, routes.getStylePreset, presetView(preset));
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
    const { id, index } = parseRequest(routes.downloadImage, req).params as { id: string; index: number };
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
      key = image ? (image.final_key ?? image.base_key) : null;
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
    const { id } = parseRequest(routes.downloadGeneration, req).params as { id: string };
    const generation = await ownedGeneration(id, userId);
    const keys = generation.images
      .map((image) => ({ index: image.index, key: image.final_key ?? image.base_key }))
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

  return app.finalize();
}
