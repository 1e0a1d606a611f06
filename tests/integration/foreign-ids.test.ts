import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { apiRoutes, fillPath, pathParamNames, routePaths, type ApiRoute, type RouteId } from '@productgen/contracts';
import { batchForm, makeZip } from '@productgen/test-kit/zips';
import {
  plainRequest,
  RENDERING_PLATFORM_LIMITS,
  startInProcessPlatform,
  type InProcessPlatform,
  type PlainResponse,
} from './batch/platform';

// Issue 32: every API route that names an object by id, called with another user's session, is a 404 in the
// product's error shape, so ids cannot be probed. The list of routes comes from the route table (@productgen/contracts):
// a route with a path parameter and a session is id-bearing, and one without a row below fails the first check. The
// objects are made by their owner through the gateway on the platform composed as `npm start` composes it (the real
// auth, billing, generation and bulk services); the stranger is a second signed-in user.
jest.setTimeout(600_000);

const PHOTO = path.resolve(__dirname, '../../../shared/photos/test/electronics/headphones-black.jpg');
const GENERATION_NOT_FOUND = { code: 404, error: 'Generation not found' };
const JOB_NOT_FOUND = { code: 404, error: 'Job not found.' };

/** The owner's objects, by kind. */
interface Ids {
  generation: string;
  preset: string;
  job: string;
}

interface Row {
  params: (ids: Ids) => Record<string, string | number>;
  body?: (ids: Ids) => object;
  answer: { code: number; error: string };
}

let mask: string;

/** One row per id-bearing route: the owner's object it names, the body an owner would send, the stranger's answer. */
const ROWS: Partial<Record<RouteId, Row>> = {
  getCutout: { params: (ids) => ({ generation_uuid: ids.generation }), answer: GENERATION_NOT_FOUND },
  saveCutout: {
    params: (ids) => ({ generation_uuid: ids.generation }),
    body: () => ({ mask }),
    answer: GENERATION_NOT_FOUND,
  },
  correctAnalysis: {
    params: (ids) => ({ generation_uuid: ids.generation }),
    body: () => ({ object: 'Headphones' }),
    answer: GENERATION_NOT_FOUND,
  },
  generationStatus: { params: (ids) => ({ generation_uuid: ids.generation }), answer: GENERATION_NOT_FOUND },
  generationDetail: { params: (ids) => ({ id: ids.generation }), answer: GENERATION_NOT_FOUND },
  getStylePreset: { params: (ids) => ({ id: ids.preset }), answer: { code: 404, error: 'Style preset not found' } },
  downloadImage: { params: (ids) => ({ id: ids.generation, index: 0 }), answer: GENERATION_NOT_FOUND },
  downloadGeneration: { params: (ids) => ({ id: ids.generation }), answer: GENERATION_NOT_FOUND },
  getBulkJob: { params: (ids) => ({ id: ids.job }), answer: JOB_NOT_FOUND },
  downloadBulkJob: { params: (ids) => ({ id: ids.job }), answer: JOB_NOT_FOUND },
  listBulkChecks: { params: (ids) => ({ id: ids.job }), answer: JOB_NOT_FOUND },
  decideBulkCheck: {
    params: (ids) => ({ id: ids.job, index: 0 }),
    body: () => ({ action: 'looks_right' }),
    answer: JOB_NOT_FOUND,
  },
  removeBulkProduct: { params: (ids) => ({ id: ids.job, index: 0 }), answer: JOB_NOT_FOUND },
  redoBulkProduct: { params: (ids) => ({ id: ids.job, index: 0 }), body: () => ({}), answer: JOB_NOT_FOUND },
};

/** Every route of the table that names an object by a path parameter and needs a session. */
const idRoutes: ApiRoute[] = apiRoutes.filter(
  (route) => route.auth === 'session' && pathParamNames(route.path).length > 0,
);

let platform: InProcessPlatform;
let owner: { sessionKey: string };
let stranger: { sessionKey: string };
let ids: Ids;

function call(
  sessionKey: string,
  route: { method: string; path: string },
  params: Record<string, string | number> = {},
  body?: object,
): Promise<PlainResponse> {
  return plainRequest(`${platform.apiUrl}${fillPath(route.path, params)}`, {
    method: route.method,
    headers: { 'X-Session-Key': sessionKey },
    body: body === undefined ? undefined : { json: body },
  });
}

async function ok<T>(answer: PlainResponse | Promise<PlainResponse>): Promise<T> {
  const response = await answer;
  if (response.status !== 200) throw new Error(`answered ${response.status}: ${response.body.toString('utf8')}`);
  return response.json<T>();
}

beforeAll(async () => {
  platform = await startInProcessPlatform(RENDERING_PLATFORM_LIMITS);
  owner = await platform.signIn('foreign.ids.owner@example.com');
  stranger = await platform.signIn('foreign.ids.stranger@example.com');
  const photo = await readFile(PHOTO);
  mask = (
    await sharp({ create: { width: 8, height: 8, channels: 3, background: '#ffffff' } })
      .greyscale()
      .png()
      .toBuffer()
  ).toString('base64');

  const { generation_uuid: generation } = await ok<{ generation_uuid: string }>(
    call(owner.sessionKey, routePaths.analyzeImage, {}, { image: photo.toString('base64') }),
  );
  await ok(call(owner.sessionKey, routePaths.imageGenFromId, {}, { id: generation, numGenerates: 1 }));
  const { id: preset } = await ok<{ id: string }>(
    call(
      owner.sessionKey,
      routePaths.createStylePreset,
      {},
      { generation_uuid: generation, image_index: 0, preset_name: 'Owner look' },
    ),
  );
  const zip = await makeZip([{ name: 'headphones.jpg', data: photo }]);
  const { bulk_job_uuid: job } = await ok<{ bulk_job_uuid: string }>(
    plainRequest(`${platform.apiUrl}${routePaths.createBulkJob.path}`, {
      method: routePaths.createBulkJob.method,
      headers: { 'X-Session-Key': owner.sessionKey },
      body: batchForm(zip, { numGenerates: '1' }),
    }),
  );
  ids = { generation, preset, job };

  // The objects are real: their owner reads each of them.
  await ok(call(owner.sessionKey, routePaths.generationStatus, { generation_uuid: generation }));
  await ok(call(owner.sessionKey, routePaths.getStylePreset, { id: preset }));
  await ok(call(owner.sessionKey, routePaths.getBulkJob, { id: job }));
});

afterAll(() => platform?.stop());

test('every id-bearing route of the route table has a row', () => {
  expect(idRoutes.length).toBeGreaterThanOrEqual(14);
  expect(Object.keys(ROWS).sort()).toEqual(idRoutes.map((route) => route.id).sort());
});

test.each(idRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))(
  "%s with another user's id: 404",
  async (_name, route) => {
    const row = ROWS[route.id as RouteId];
    if (!row) throw new Error(`${route.id} has no row in ROWS`);
    const answer = await call(stranger.sessionKey, route, row.params(ids), row.body?.(ids));
    expect({ status: answer.status, body: answer.json() }).toEqual({ status: 404, body: row.answer });
  },
);
