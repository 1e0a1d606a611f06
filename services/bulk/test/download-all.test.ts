import { readFile } from 'node:fs/promises';
import path from 'node:path';
import express from 'express';
import { billingInternalRoutes, generationInternalRoutes, type BulkGeneration } from '@productgen/contracts';
import { serveRoute } from '@productgen/service-kit';
import { pollUntil, serviceCallHeaders } from '@productgen/test-kit';
import { makeZip, readZipEntries } from '@productgen/test-kit/zips';
import type { JobDocument } from '../src/data/models';
import { NOT_INCLUDED_FILENAME } from '../src/domain/job';
import { createGenerationStandIn } from '@productgen/test-kit/generation-stand-in';
import { announceCompleted, startBulkTestBed, stubService, uploadBatch, type BulkTestBed } from './test-bed';

// Download All reads the finished images' objects from generation's bucket itself, by the references generation's
// declared list gives (`downloads`): no image travels through generation. Generation is stood in by
// test-kit's generation-stand-in (the contract suite of generation's internal API runs against it too), which records every
// request outside its internal routes, its download route included: Download All must make none. On the real
// embedded MongoDB and S3 servers.

const PHOTOS = path.resolve(__dirname, '../../../../shared/photos/test');
const OWNER = 'user-download-all';
jest.setTimeout(120_000);

describe('Download All reads the objects generation references', () => {
  let bed: BulkTestBed;
  const generation = createGenerationStandIn(() => ({ batchPhotos: bed.store, images: bed.generationImages }));
  /** What the stand-in's list answers (a test may change a reference). */
  let listedAs = (found: BulkGeneration): BulkGeneration => found;

  /** The stand-in renders a product (but `withdrawn` images), then generation's message is sent. */
  async function render(uuid: string, job: JobDocument, withdrawn: number[]): Promise<void> {
    const made = await generation.render(uuid, { withdrawn });
    await announceCompleted(bed.bus, { userId: OWNER, bulkJobUuid: job.uuid, generationUuid: uuid, images: made });
  }

  beforeAll(async () => {
    // Generation's list passes through `listedAs`; anything else reaches the stand-in as it is.
    const answering = express();
    answering.use(express.json({ limit: '32mb' }));
    answering.use(generationInternalRoutes.listBulkGenerations.path, (req, res, next) => {
      const send = res.json.bind(res);
      res.json = (body: { generations?: BulkGeneration[] }) =>
        send(body.generations ? { generations: body.generations.map((found) => listedAs(found)) } : body);
      next();
    });
    answering.use(generation.app);
    bed = await startBulkTestBed({
      name: 'bulk-download-all',
      billing: stubService((app) => {
        serveRoute(app, billingInternalRoutes.userBilling, () => ({ credits: 100, purchaser: true }));
        serveRoute(app, billingInternalRoutes.reserveBatchCredits, () => ({ balance: 91, watermark: false }));
      }),
      generation: answering,
      env: { PROGRESS_POLL_MS: '3600000', PROGRESS_REFRESH_INTERVAL_MS: '10' },
    });
    await bed.bulk.start();
  }, 60_000);

  afterAll(() => bed?.close(), 60_000);

  const stored = (uuid: string) =>
    pollUntil(
      'the hand-over to finish',
      async () => (await bed.connection.collection<JobDocument>('bulk_jobs').findOne({ uuid }))!,
      (job) => job.stage === 'tracking',
    );

  test('the zip holds the very objects listed, a refunded image left out, with no image asked of generation', async () => {
    const photo = await readFile(path.join(PHOTOS, 'fitness/boxing-gloves.jpg'));
    const zip = await makeZip(['gloves.jpg', 'kept.jpg', 'later.jpg'].map((name) => ({ name, data: photo })));
    const upload = await uploadBatch(bed.url, OWNER, zip, { numGenerates: '3' });
    expect(upload.status).toBe(200);
    const uuid = upload.body.bulk_job_uuid!;
    const job = await stored(uuid);
    const [gloves, kept, later] = job.products.map((product) => product.generation_uuid) as [string, string, string];
    // Image 1 of "gloves" was refunded: generation no longer lists it. "later" is still rendering.
    await render(gloves, job, [1]);
    await render(kept, job, []);
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
    expect(entries.map((entry) => [entry.name, entry.data.toString('latin1')])).toEqual([
      ['gloves/original.jpg', photo.toString('latin1')],
      ['gloves/1.jpg', generation.imageBytes(gloves, 0).toString('latin1')],
      ['gloves/3.jpg', generation.imageBytes(gloves, 2).toString('latin1')],
      ['kept/original.jpg', photo.toString('latin1')],
      ['kept/1.jpg', generation.imageBytes(kept, 0).toString('latin1')],
      ['kept/2.jpg', generation.imageBytes(kept, 1).toString('latin1')],
      ['kept/3.jpg', generation.imageBytes(kept, 2).toString('latin1')],
      [
        NOT_INCLUDED_FILENAME,
        'These products of the batch have no images in this download:\nlater.jpg: still rendering\n',
      ],
    ]);
    expect(job.products.map((product) => product.generation_uuid)).toContain(later);
    expect(generation.elsewhere).toEqual([]);
  });

  test('a reference naming another bucket than generation’s is not read', async () => {
    const photo = await readFile(path.join(PHOTOS, 'fitness/boxing-gloves.jpg'));
    const upload = await uploadBatch(bed.url, OWNER, await makeZip([{ name: 'odd.jpg', data: photo }]), {
      numGenerates: '1',
    });
    const uuid = upload.body.bulk_job_uuid!;
    const job = await stored(uuid);
    const generationUuid = job.products[0]!.generation_uuid;
    await render(generationUuid, job, []);
    // An object of bulk's own bucket, and a list that names it: bulk must not read it.
    const secret = Buffer.from('an object of bulk’s own bucket');
    await bed.store.putObject('secret/odd.jpg', secret, { contentType: 'image/jpeg' });
    listedAs = (found) =>
      found.generation_uuid !== generationUuid
        ? found
        : {
            ...found,
            downloads: {
              ...found.downloads,
              images: found.downloads.images.map((image) => ({
                ...image,
                bucket: bed.store.bucket,
                key: 'secret/odd.jpg',
              })),
            },
          };
    try {
      // The answer breaks off (before or after its headers) instead of completing: no zip, nothing of that bucket.
      const answer = await fetch(`${bed.url}/download/bulk/${uuid}`, { headers: serviceCallHeaders(OWNER) })
        .then(async (response) => Buffer.from(await response.arrayBuffer()))
        .catch(() => null);
      expect(answer).toBeNull();
    } finally {
      listedAs = (found) => found;
    }
    expect(generation.elsewhere).toEqual([]);
  });
});
