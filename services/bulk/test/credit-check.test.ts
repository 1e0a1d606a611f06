import { billingInternalRoutes, OUT_OF_CREDITS_MESSAGE } from '@productgen/contracts';
import { AppError, serveRoute } from '@productgen/service-kit';
import { serviceCallHeaders } from '@productgen/test-kit';
import { randomBytes } from 'node:crypto';
import { craftZip, makeZip } from '@productgen/test-kit/zips';
import { listObjectKeys } from '@productgen/test-kit/object-store';
import { startBulkTestBed, stubService, uploadBatch, type BulkTestBed } from './test-bed';

// Zips of 24 MiB through a real HTTP server, S3 and MongoDB: seconds each on a busy 2-core machine.
jest.setTimeout(60_000);

/**
 * Security review item 5: a batch upload from an account without a single credit is refused before its zip is read
 * or stored (the zip's image count, and so the credits it needs, is known only after reading it).
 */
describe('batch upload without credits', () => {
  let bed: BulkTestBed;
  /** Billing's balance per user, served by its internal route as declared in the contracts. */
  const balances = new Map<string, number>();
  let reservations = 0;

  beforeAll(async () => {
    bed = await startBulkTestBed({
      name: 'bulk-credit-check',
      billing: stubService((app) => {
        serveRoute(app, billingInternalRoutes.userBilling, ({ params }) => ({
          credits: balances.get(params.userId) ?? 0,
          purchaser: false,
        }));
        // Reached only by a zip read in full: the reservation is where its full count is checked.
        serveRoute(app, billingInternalRoutes.reserveBatchCredits, () => {
          reservations += 1;
          throw AppError.paymentRequired(OUT_OF_CREDITS_MESSAGE);
        });
      }),
      // Nothing here may reach generation: a refused upload stops before any product exists.
      generation: stubService(() => undefined),
    });
  }, 60_000);

  afterAll(() => bed?.close(), 60_000);

  const upload = (userId: string, bytes: Buffer, type?: string) =>
    uploadBatch(bed.url, userId, bytes, { numGenerates: '1' }, type);

  test('a balance of 0: 402 with the out-of-credits text before the zip is read; nothing stored, no job', async () => {
    const answer = await upload('user-without-credits', Buffer.alloc(2 * 1024 * 1024, 7));
    expect(answer).toEqual({ status: 402, body: { code: 402, error: OUT_OF_CREDITS_MESSAGE } });
    expect(await bed.connection.collection('bulk_jobs').countDocuments()).toBe(0);
    expect(await listObjectKeys(bed.s3, bed.store.bucket, '')).toEqual([]);
  });

  /** The web app's order: the per-product count before the zip, so the count is known while the zip streams in. */
  const uploadCountFirst = async (userId: string, zip: Buffer, numGenerates: number) => {
    const form = new FormData();
    form.append('numGenerates', String(numGenerates));
    form.append('zipFile', new Blob([new Uint8Array(zip)], { type: 'application/zip' }), 'images.zip');
    const response = await fetch(`${bed.url}/image-gen/bulk-zip`, {
      method: 'POST',
      headers: serviceCallHeaders(userId),
      body: form,
    });
    return { status: response.status, body: (await response.json()) as unknown };
  };

  /** Six 4-MiB photos: 24 MiB of zip whose first local headers already say how many images it holds. */
  const sixLargePhotos = () =>
    craftZip(
      Array.from({ length: 6 }, (_, index) => ({ name: `photo-${index}.jpg`, data: randomBytes(4 * 1024 * 1024) })),
    );

  test('a balance too small for the images seen so far: 402 while the zip streams in; nothing stored, no job', async () => {
    balances.set('user-with-five-credits', 5);
    // 2 images × 3 per product already need 6 credits: refused at the second entry, a third of the way in.
    const answer = await uploadCountFirst('user-with-five-credits', sixLargePhotos(), 3);
    expect(answer).toEqual({ status: 402, body: { code: 402, error: OUT_OF_CREDITS_MESSAGE } });
    // Without the count before the file, each image takes at least one credit: refused at the sixth.
    const countAfter = await uploadBatch(bed.url, 'user-with-five-credits', sixLargePhotos(), { numGenerates: '1' });
    expect(countAfter).toEqual({ status: 402, body: { code: 402, error: OUT_OF_CREDITS_MESSAGE } });
    expect(reservations).toBe(0);
    expect(await bed.connection.collection('bulk_jobs').countDocuments()).toBe(0);
    expect(await listObjectKeys(bed.s3, bed.store.bucket, '')).toEqual([]);
  });

  test('a zip whose sizes follow each entry (data descriptors, as streaming zip tools write): 402 as it streams in', async () => {
    balances.set('user-with-four-credits', 4);
    // Six 4-MiB photos written from streams: no local header holds a size, so each entry's end is found by its
    // data descriptor. 5 images already need 5 credits: refused at the fifth entry, before the sixth arrives.
    const zip = await makeZip(
      Array.from({ length: 6 }, (_, index) => ({ name: `photo-${index}.jpg`, data: randomBytes(4 * 1024 * 1024) })),
      { streamed: true },
    );
    expect(zip.readUInt16LE(6) & 0x8).toBe(0x8);
    const answer = await uploadCountFirst('user-with-four-credits', zip, 1);
    expect(answer).toEqual({ status: 402, body: { code: 402, error: OUT_OF_CREDITS_MESSAGE } });
    expect(reservations).toBe(0);
    expect(await bed.connection.collection('bulk_jobs').countDocuments()).toBe(0);
    expect(await listObjectKeys(bed.s3, bed.store.bucket, '')).toEqual([]);
  });

  test('a balance that covers them: 201 images get the count rule (400), not a credits refusal', async () => {
    balances.set('user-with-many-credits', 1000);
    const many = craftZip(
      Array.from({ length: 201 }, (_, index) => ({ name: `p${index}.jpg`, data: randomBytes(64) })),
    );
    const answer = await upload('user-with-many-credits', many);
    expect(answer).toEqual({
      status: 400,
      body: { code: 400, error: 'The zip file holds 201 images; a batch takes at most 200.' },
    });
    expect(reservations).toBe(0);
  });

  test('with credits the upload is read and checked as before (a file that is not a zip: 400)', async () => {
    balances.set('user-with-credits', 3);
    const answer = await upload('user-with-credits', Buffer.alloc(1024, 7), 'text/plain');
    expect(answer).toEqual({ status: 400, body: { code: 400, error: 'Please upload a valid zip file.' } });
  });
});
