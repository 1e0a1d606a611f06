import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '@productgen/service-kit';
import { makeZip } from '@productgen/test-kit/zips';
import { pollUntil } from '@productgen/test-kit';
import type { JobDocument } from '../src/data/models';
import { acceptingGeneration, purchaserBilling, startBulkTestBed, uploadBatch, type BulkTestBed } from './test-bed';

// Found by the resilience suite under load: a hand-over that resumed stored a product's photo again while generation
// could still be reading it for the earlier attempt. The embedded S3 server replaces an object in place, so the read
// could be torn: the product failed and its credits went back while the first attempt rendered it. A resumed
// hand-over keeps the photo already stored.

const PHOTO = path.resolve(__dirname, '../../../../shared/photos/test/electronics/headphones-black.jpg');
const USER = 'user-hand-over-resume';
jest.setTimeout(120_000);

describe('a hand-over that stops and resumes', () => {
  let bed: BulkTestBed;
  /** The photo generation was handed, as it read it from bulk's bucket, per call. */
  const photosRead: Buffer[] = [];
  const givenBack: string[] = [];

  beforeAll(async () => {
    bed = await startBulkTestBed({
      name: 'bulk-hand-over-resume',
      billing: purchaserBilling(givenBack),
      generation: acceptingGeneration(async (body) => {
        const stored = await bed.store.getObjectStream(body.photo.key);
        photosRead.push(Buffer.concat(await stored.toArray()));
        if (photosRead.length === 1) {
          // The first attempt: generation is still reading when bulk gives up on it. A marker of the same size
          // stands for the bytes that attempt holds; a resumed hand-over that stored the photo again would
          // replace it.
          const marker = Buffer.alloc(photosRead[0]!.length, 0x4d);
          await bed.store.putObject(body.photo.key, marker, {
            contentType: 'application/octet-stream',
            size: marker.length,
          });
          throw AppError.serviceUnavailable('generation is busy');
        }
      }),
    });
  }, 60_000);

  afterAll(() => bed?.close(), 60_000);

  test('keeps the photo the first attempt stored: generation reads the same object again', async () => {
    const photo = await readFile(PHOTO);
    const answer = await uploadBatch(bed.url, USER, await makeZip([{ name: 'headphones.jpg', data: photo }]));
    expect(answer.status).toBe(200);
    const uuid = answer.body.bulk_job_uuid!;
    const jobDocument = async () =>
      (await bed.connection.collection<JobDocument>('bulk_jobs').findOne({ uuid })) as JobDocument;

    await pollUntil(
      'the first attempt to stop',
      jobDocument,
      (job) => job.lease_until === null || job.stage !== 'handing_over',
    );
    await bed.bulk.sweep();
    const resumed = await pollUntil('the hand-over to finish', jobDocument, (job) => job.stage === 'tracking');

    expect(resumed.products.map((product) => product.state)).toEqual(['handed']);
    expect(photosRead).toHaveLength(2);
    expect(photosRead[0]!.equals(photo)).toBe(true);
    expect(photosRead[1]!.every((byte) => byte === 0x4d)).toBe(true);
    expect(givenBack).toEqual([]);
  });
});
