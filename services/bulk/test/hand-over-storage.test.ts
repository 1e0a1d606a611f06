import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isBatchPhotoKey } from '@productgen/contracts';
import { makeZip } from '@productgen/test-kit/zips';
import { listObjectKeys } from '@productgen/test-kit/object-store';
import { pollUntil } from '@productgen/test-kit';
import type { JobDocument } from '../src/data/models';
import { acceptingGeneration, purchaserBilling, startBulkTestBed, uploadBatch, type BulkTestBed } from './test-bed';

// Found by the resilience suite: the S3 server restarting mid hand-over made the products not yet read "unreadable",
// so they were refused for good (credits given back) and the job still said completed. Storage trouble must stop
// the hand-over instead, leaving those products waiting for the sweeper, which hands them over once S3 is back.

const PHOTOS = path.resolve(__dirname, '../../../../shared/photos/test');
// Over 512 KiB in all (the zip's tail is read once at open), so the later products are read from S3 one by one.
const BATCH = [
  'electronics/compact-camera.jpg',
  'fitness/boxing-gloves.jpg',
  'electronics/headphones-black.jpg',
  'toys/robot-toy.jpg',
  'fashion/boot-white-fringe.jpg',
];
const USER = 'user-storage-restart';
jest.setTimeout(120_000);

describe('batch hand-over while the S3 server restarts', () => {
  let bed: BulkTestBed;
  /** generation_uuid of every hand-over generation received, in order (a repeat would show twice). */
  const handedOver: string[] = [];
  /** Size of each photo generation was handed by reference, read from bulk's bucket as generation reads it. */
  const photoSizes: number[] = [];
  const givenBack: string[] = [];

  beforeAll(async () => {
    bed = await startBulkTestBed({
      name: 'bulk-storage-restart',
      billing: purchaserBilling(givenBack),
      generation: acceptingGeneration(async (body) => {
        handedOver.push(body.generation_uuid);
        expect(body.photo.bucket).toBe(bed.store.bucket);
        expect(isBatchPhotoKey(body.photo.key, body.userId, body.bulk_job_uuid)).toBe(true);
        photoSizes.push((await bed.store.stat(body.photo.key))!.size);
        // S3 goes down while generation holds the second product: bulk reads the third one from a stopped server.
        if (handedOver.length === 2) await bed.stopS3();
      }),
      // One product at a time, so the fault lands between two known products.
      env: { FANOUT_CONCURRENCY: '1' },
    });
  }, 60_000);

  afterAll(() => bed?.close(), 60_000);

  const jobDocument = async (uuid: string) =>
    (await bed.connection.collection<JobDocument>('bulk_jobs').findOne({ uuid })) as JobDocument;
  const states = (job: JobDocument) => job.products.map((product) => product.state);

  test('products not read yet wait for S3 and are handed over once each after it restarts; none is refused', async () => {
    const zip = await makeZip(
      await Promise.all(
        BATCH.map(async (file) => ({ name: path.basename(file), data: await readFile(path.join(PHOTOS, file)) })),
      ),
    );
    const answer = await uploadBatch(bed.url, USER, zip);
    expect(answer.status).toBe(200);
    const uuid = answer.body.bulk_job_uuid!;

    // The hand-over stops (lease given up, still handing over), finishes, or refuses a product.
    const stopped = await pollUntil(
      'the hand-over to stop, finish or refuse a product',
      () => jobDocument(uuid),
      (job) => job.stage !== 'handing_over' || job.lease_until === null || states(job).includes('failed'),
    );
    expect(stopped.stage).toBe('handing_over');
    expect(states(stopped)).toEqual(['handed', 'handed', 'waiting', 'waiting', 'waiting']);
    expect(givenBack).toEqual([]);

    // A sweep while S3 is still down changes nothing and refuses nothing.
    await bed.bulk.sweep();
    expect(states(await jobDocument(uuid))).toEqual(['handed', 'handed', 'waiting', 'waiting', 'waiting']);
    expect(givenBack).toEqual([]);

    await bed.restartS3();
    await bed.bulk.sweep();
    const resumed = await jobDocument(uuid);
    expect(resumed.stage).toBe('tracking');
    expect(states(resumed)).toEqual(['handed', 'handed', 'handed', 'handed', 'handed']);
    expect(handedOver).toEqual(resumed.products.map((product) => product.generation_uuid));
    expect(givenBack).toEqual([]);
    // Each photo was handed over by reference to exactly its bytes in the zip.
    expect(photoSizes).toEqual(
      await Promise.all(BATCH.map(async (file) => (await readFile(path.join(PHOTOS, file))).length)),
    );
    // The upload and the photos are removed once every product is with generation.
    expect(await listObjectKeys(bed.s3, bed.store.bucket, 'uploads/')).toEqual([]);
    expect(await listObjectKeys(bed.s3, bed.store.bucket, 'batches/')).toEqual([]);
  });
});
