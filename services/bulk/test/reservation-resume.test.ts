import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { billingInternalRoutes } from '@productgen/contracts';
import { AppError, serveRoute } from '@productgen/service-kit';
import { makeZip } from '@productgen/test-kit/zips';
import type { JobDocument } from '../src/data/models';
import { acceptingGeneration, startBulkTestBed, stubService, uploadBatch, type BulkTestBed } from './test-bed';

// A batch whose credit reservation billing did not answer stays "reserving", and the sweeper reserves it again. That
// reservation gives the job its hand-over lease, so the same sweep hands the products over. Before, the sweep asked
// for the lease again, found it held (by its own reservation) and left the batch waiting a whole lease
// (FANOUT_LEASE_MS, a minute by default) for a later sweep.

const PHOTO = path.resolve(__dirname, '../../../../shared/photos/test/electronics/headphones-black.jpg');
const USER = 'user-reservation-resume';
jest.setTimeout(120_000);

describe('a batch whose reservation billing did not answer', () => {
  let bed: BulkTestBed;
  let billingAnswers = false;
  /** generation_uuid of every product generation was handed. */
  const handedOver: string[] = [];

  beforeAll(async () => {
    bed = await startBulkTestBed({
      name: 'bulk-reservation-resume',
      billing: stubService((app) => {
        serveRoute(app, billingInternalRoutes.userBilling, () => ({ credits: 100, purchaser: true }));
        serveRoute(app, billingInternalRoutes.reserveBatchCredits, () => {
          if (!billingAnswers) throw AppError.serviceUnavailable('billing is restarting');
          return { balance: 98, watermark: false };
        });
      }),
      generation: acceptingGeneration((body) => {
        handedOver.push(body.generation_uuid);
      }),
    });
  }, 60_000);

  afterAll(() => bed?.close(), 60_000);

  test('is reserved and handed over by one sweep once billing answers', async () => {
    const photo = await readFile(PHOTO);
    const zip = await makeZip([
      { name: 'first.jpg', data: photo },
      { name: 'second.jpg', data: photo },
    ]);
    const answer = await uploadBatch(bed.url, USER, zip);
    expect(answer.status).toBe(503);
    const jobs = bed.connection.collection<JobDocument>('bulk_jobs');
    const waiting = (await jobs.findOne({ user_id: USER })) as JobDocument;
    expect(waiting.stage).toBe('reserving');

    billingAnswers = true;
    await bed.bulk.sweep();

    const swept = (await jobs.findOne({ uuid: waiting.uuid })) as JobDocument;
    expect(swept.stage).toBe('tracking');
    expect(swept.products.map((product) => product.state)).toEqual(['handed', 'handed']);
    expect(handedOver.sort()).toEqual(waiting.products.map((product) => product.generation_uuid).sort());
  });
});
