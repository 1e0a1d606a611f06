import { billingInternalRoutes, OUT_OF_CREDITS_MESSAGE } from '@productgen/contracts';
import { serveRoute } from '@productgen/service-kit';
import { listObjectKeys } from '../../../tests/support/object-store';
import { startBulkTestBed, stubService, uploadBatch, type BulkTestBed } from './test-bed';

/**
 * Security review item 5: a batch upload from an account without a single credit is refused before its zip is read
 * or stored (the zip's image count, and so the credits it needs, is known only after reading it).
 */
describe('batch upload without credits', () => {
  let bed: BulkTestBed;
  /** Billing's balance per user, served by its internal route as declared in the contracts. */
  const balances = new Map<string, number>();

  beforeAll(async () => {
    bed = await startBulkTestBed({
      name: 'bulk-credit-check',
      billing: stubService((app) =>
        serveRoute(app, billingInternalRoutes.userBilling, ({ params }) => ({
          credits: balances.get(params.userId) ?? 0,
          purchaser: false,
        })),
      ),
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

  test('with credits the upload is read and checked as before (a file that is not a zip: 400)', async () => {
    balances.set('user-with-credits', 3);
    const answer = await upload('user-with-credits', Buffer.alloc(1024, 7), 'text/plain');
    expect(answer).toEqual({ status: 400, body: { code: 400, error: 'Please upload a valid zip file.' } });
  });
});
