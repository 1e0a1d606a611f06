import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  billingInternalRoutes,
  generationInternalRoutes,
  type BulkGeneration,
  type CreateBulkGenerationRequest,
} from '@productgen/contracts';
import { serveRoute } from '@productgen/service-kit';
import { pollUntil, serviceCallHeaders } from '@productgen/test-kit';
import { makeZip, readZipEntries } from '@productgen/test-kit/zips';
import type { JobDocument } from '../src/data/models';
import { NOT_INCLUDED_FILENAME } from '../src/domain/job';
import { announceCompleted, startBulkTestBed, stubService, uploadBatch, type BulkTestBed } from './test-bed';

// Download All reads the finished images' objects from generation's bucket itself, by the references generation's
// declared list gives (`downloads`): no image travels through generation. The stand-in of generation answers its
// internal routes and nothing else: any other request (its download route included) is recorded and refused, so the
// zip can only be made from the object store. On the real embedded MongoDB and S3 servers.

const PHOTOS = path.resolve(__dirname, '../../../../shared/photos/test');
const OWNER = 'user-download-all';
jest.setTimeout(120_000);

interface StoodIn {
  request: CreateBulkGenerationRequest;
  /** The indexes generation lists a download of (a refunded image is not listed). */
  listed: number[];
  rendered: boolean;
}

describe('Download All reads the objects generation references', () => {
  let bed: BulkTestBed;
  const generations = new Map<string, StoodIn>();
  /** Every request generation received outside its internal routes. */
  const elsewhere: string[] = [];
  const imageKey = (uuid: string, index: number) => `images/${uuid}/${index}-final.jpg`;
  const originalKey = (uuid: string) => `originals/${uuid}.jpg`;
  const imageBytes = (uuid: string, index: number) => Buffer.from(`final image ${index} of ${uuid}`);
  /** What the stand-in's list answers for a generation (a test may change a reference). */
  let listedAs = (generation: BulkGeneration): BulkGeneration => generation;

  function view(uuid: string, generation: StoodIn): BulkGeneration {
    const bucket = bed.generationImages.bucket;
    return {
      id: uuid,
      generation_uuid: uuid,
      created_at: '2026-11-01T10:00:00.000Z',
      images: generation.listed.map((index) => ({
        id: `${uuid}-${index}`,
        input_url: `/download/${uuid}/image/-1`,
        output_url: `/download/${uuid}/image/${index}?v=final`,
        metadata: { fixes_done: [true, true, true] },
      })),
      metadata: {
        category: 'fitness',
        num_images: generation.request.count,
        status: generation.rendered ? 'completed' : 'processing',
        error: null,
      },
      original_image_url: `/download/${uuid}/image/-1`,
      original_filename: generation.request.original_filename,
      original_extension: 'jpg',
      downloads: {
        original: { bucket, key: originalKey(uuid) },
        images: generation.listed.map((index) => ({ index, bucket, key: imageKey(uuid, index) })),
      },
    };
  }

  /** The stand-in renders a product: its original and images stored in generation's bucket, then its message. */
  async function render(uuid: string, withdrawn: number[]): Promise<void> {
    const generation = generations.get(uuid)!;
    const { userId, bulk_job_uuid: bulkJobUuid, count } = generation.request;
    const original = Buffer.from(`original of ${uuid}`);
    await bed.generationImages.putObject(originalKey(uuid), original, { contentType: 'image/jpeg' });
    const made = Array.from({ length: count }, (_unused, index) => index);
    for (const index of made) {
      await bed.generationImages.putObject(imageKey(uuid, index), imageBytes(uuid, index), {
        contentType: 'image/jpeg',
      });
    }
    generation.listed = made.filter((index) => !withdrawn.includes(index));
    generation.rendered = true;
    await announceCompleted(bed.bus, { userId, bulkJobUuid, generationUuid: uuid, images: made });
  }

  beforeAll(async () => {
    bed = await startBulkTestBed({
      name: 'bulk-download-all',
      billing: stubService((app) => {
        serveRoute(app, billingInternalRoutes.userBilling, () => ({ credits: 100, purchaser: true }));
        serveRoute(app, billingInternalRoutes.reserveBatchCredits, () => ({ balance: 91, watermark: false }));
      }),
      generation: stubService((app) => {
        serveRoute(app, generationInternalRoutes.createBulkGeneration, ({ body }) => {
          generations.set(body.generation_uuid, { request: body, listed: [], rendered: false });
          return {
            generation_uuid: body.generation_uuid,
            outcome: 'queued' as const,
            category: 'fitness' as const,
            images: body.count,
            error: null,
          };
        });
        serveRoute(app, generationInternalRoutes.listBulkGenerations, ({ params }) => ({
          generations: [...generations]
            .filter(([, generation]) => generation.request.bulk_job_uuid === params.bulkJobUuid)
            .map(([uuid, generation]) => listedAs(view(uuid, generation))),
        }));
        app.use((req, res) => {
          elsewhere.push(`${req.method} ${req.path}`);
          res.status(503).json({ code: 503, error: 'generation is not reachable here' });
        });
      }),
      env: { PROGRESS_POLL_MS: '3600000', PROGRESS_REFRESH_INTERVAL_MS: '10' },
    });
    await bed.bulk.start();
  }, 60_000);

  afterAll(() => bed?.close(), 60_000);

  test('the zip holds the very objects listed, a refunded image left out, with no image asked of generation', async () => {
    const photo = await readFile(path.join(PHOTOS, 'fitness/boxing-gloves.jpg'));
    const zip = await makeZip(['gloves.jpg', 'kept.jpg', 'later.jpg'].map((name) => ({ name, data: photo })));
    const upload = await uploadBatch(bed.url, OWNER, zip, { numGenerates: '3' });
    expect(upload.status).toBe(200);
    const uuid = upload.body.bulk_job_uuid!;
    const job = await pollUntil(
      'the hand-over to finish',
      async () => (await bed.connection.collection<JobDocument>('bulk_jobs').findOne({ uuid }))!,
      (stored) => stored.stage === 'tracking',
    );
    const [gloves, kept, later] = job.products.map((product) => product.generation_uuid) as [string, string, string];
    // Image 1 of "gloves" was refunded: generation no longer lists it. "later" is still rendering.
    await render(gloves, [1]);
    await render(kept, []);
    await pollUntil(
      'the two rendered products to be recorded',
      async () => (await bed.connection.collection<JobDocument>('bulk_jobs').findOne({ uuid }))!,
      (stored) => stored.generations_done === 2,
    );

    const download = await fetch(`${bed.url}/download/bulk/${uuid}?originals=true`, {
      headers: serviceCallHeaders(OWNER),
    });
    expect(download.status).toBe(200);
    const entries = readZipEntries(Buffer.from(await download.arrayBuffer()));
    expect(entries.map((entry) => [entry.name, entry.data.toString('utf8')])).toEqual([
      ['gloves/original.jpg', `original of ${gloves}`],
      ['gloves/1.jpg', imageBytes(gloves, 0).toString('utf8')],
      ['gloves/3.jpg', imageBytes(gloves, 2).toString('utf8')],
      ['kept/original.jpg', `original of ${kept}`],
      ['kept/1.jpg', imageBytes(kept, 0).toString('utf8')],
      ['kept/2.jpg', imageBytes(kept, 1).toString('utf8')],
      ['kept/3.jpg', imageBytes(kept, 2).toString('utf8')],
      [
        NOT_INCLUDED_FILENAME,
        'These products of the batch have no images in this download:\nlater.jpg: still rendering\n',
      ],
    ]);
    expect(generations.get(later)!.rendered).toBe(false);
    expect(elsewhere).toEqual([]);
  });

  test('a reference naming another bucket than generation’s is not read', async () => {
    const photo = await readFile(path.join(PHOTOS, 'fitness/boxing-gloves.jpg'));
    const upload = await uploadBatch(bed.url, OWNER, await makeZip([{ name: 'odd.jpg', data: photo }]), {
      numGenerates: '1',
    });
    const uuid = upload.body.bulk_job_uuid!;
    const job = await pollUntil(
      'the hand-over to finish',
      async () => (await bed.connection.collection<JobDocument>('bulk_jobs').findOne({ uuid }))!,
      (stored) => stored.stage === 'tracking',
    );
    const generationUuid = job.products[0]!.generation_uuid;
    await render(generationUuid, []);
    // The same key in bulk's own bucket, and a list that names that bucket: bulk must not serve it.
    const secret = Buffer.from('an object of bulk’s own bucket');
    await bed.store.putObject(imageKey(generationUuid, 0), secret, { contentType: 'image/jpeg' });
    listedAs = (generation) =>
      generation.generation_uuid !== generationUuid
        ? generation
        : {
            ...generation,
            downloads: {
              ...generation.downloads,
              images: generation.downloads.images.map((image) => ({ ...image, bucket: bed.store.bucket })),
            },
          };
    try {
      // The answer breaks off (before or after its headers) instead of completing: no zip, nothing of that bucket.
      const answer = await fetch(`${bed.url}/download/bulk/${uuid}`, { headers: serviceCallHeaders(OWNER) })
        .then(async (response) => Buffer.from(await response.arrayBuffer()))
        .catch(() => null);
      expect(answer).toBeNull();
    } finally {
      listedAs = (generation) => generation;
    }
    expect(elsewhere).toEqual([]);
  });
});
