import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { batchPhotoKey } from '@productgen/contracts';
import { createCrashPoint, createLogger } from '@productgen/service-kit';
import { makeZip } from '@productgen/test-kit/zips';
import type { BillingClient } from '../src/clients/billing';
import type { GenerationClient } from '../src/clients/generation';
import type { JobRepository } from '../src/data/job-repository';
import type { JobDocument } from '../src/data/models';
import { HandOver } from '../src/hand-over';
import { ProgressTracker } from '../src/progress';
import { purchaserBilling, startBulkTestBed, stubService, type BulkTestBed } from './test-bed';

// Issue 33: a process whose hand-over lease lapsed (it was slow, not stopped) and was claimed by another went on
// renewing, releasing (letting a third process claim it too) and finishing the hand-over, removing the upload the
// new holder still read. Each claim now has its own holder, and only the current one acts on the lease.

const PHOTO = path.resolve(__dirname, '../../../../shared/photos/test/electronics/headphones-black.jpg');
const USER = 'user-hand-over-lease';
const LEASE_MS = 60_000;
jest.setTimeout(120_000);

const leaseFrom = (at: Date) => new Date(at.getTime() + LEASE_MS);
/** When another process's sweeper finds the lease of a claim made now lapsed. */
const aLeaseLater = () => new Date(Date.now() + LEASE_MS + 1);

describe('the hand-over lease after another process claimed it', () => {
  let bed: BulkTestBed;
  let jobs: JobRepository;

  beforeAll(async () => {
    bed = await startBulkTestBed({
      name: 'bulk-hand-over-lease',
      billing: purchaserBilling([]),
      generation: stubService(() => undefined),
    });
    jobs = bed.bulk.jobs;
  }, 60_000);

  afterAll(() => bed?.close(), 60_000);

  /** A job of `count` copies of the photo, its zip uploaded and its credits reserved under a first lease. */
  async function reservedJob(count: number): Promise<JobDocument> {
    const uuid = randomUUID();
    const uploadKey = `uploads/${USER}/${uuid}.zip`;
    const photo = await readFile(PHOTO);
    const zip = await makeZip(Array.from({ length: count }, (_, index) => ({ name: `p${index}.jpg`, data: photo })));
    await bed.store.putObject(uploadKey, zip, { contentType: 'application/zip', size: zip.length });
    await jobs.create({
      uuid,
      userId: USER,
      imagesPerProduct: 1,
      presets: [],
      checkUncertain: false,
      uploadKey,
      products: Array.from({ length: count }, (_, index) => ({
        index,
        entry_index: index,
        name: `p${index}.jpg`,
        generation_uuid: randomUUID(),
      })),
    });
    return (await jobs.markReserved(uuid, false, leaseFrom(new Date())))!;
  }

  test('the old holder can no longer renew, release or finish it', async () => {
    const first = await reservedJob(1);
    const later = aLeaseLater();
    const second = (await jobs.claimHandOver(first.uuid, later, leaseFrom(later)))!;

    expect(await jobs.renewLease(first.uuid, first.lease_holder!, leaseFrom(later))).toBe(false);
    await jobs.releaseLease(first.uuid, first.lease_holder!);
    expect(await jobs.markHandedOver(first.uuid, first.lease_holder!)).toBe(false);

    expect(second.lease_holder).not.toBe(first.lease_holder);
    expect(await jobs.findByUuid(first.uuid)).toMatchObject({
      stage: 'handing_over',
      upload_key: first.upload_key,
      lease_holder: second.lease_holder,
      lease_until: second.lease_until,
    });
    expect(await jobs.renewLease(first.uuid, second.lease_holder!, leaseFrom(later))).toBe(true);
  });

  test('a hand-over whose lease is claimed mid-run stops handing products and leaves the job and upload', async () => {
    const job = await reservedJob(3);
    let newHolder = null as JobDocument | null;
    const handed: string[] = [];
    const generation = {
      api: {
        createBulkGeneration: async ({ body }: { body: { generation_uuid: string } }) => {
          handed.push(body.generation_uuid);
          // The first product took longer than the lease: another process's sweeper claims the job meanwhile.
          if (handed.length === 1) {
            const later = aLeaseLater();
            newHolder = await jobs.claimHandOver(job.uuid, later, leaseFrom(later));
          }
          return { generation_uuid: body.generation_uuid, outcome: 'queued', category: null, images: 1, error: null };
        },
      },
    } as unknown as GenerationClient;
    const warnings: Array<{ level: string; msg: string }> = [];
    const logger = createLogger({
      service: 'bulk-hand-over-lease',
      level: 'warn',
      destination: { write: (line: string) => void warnings.push(JSON.parse(line)) },
    });
    const handOver = new HandOver({
      jobs,
      objectStore: bed.store,
      generation,
      billing: {} as BillingClient, // every photo is readable: no credit goes back
      progress: new ProgressTracker({ jobs, generation, logger, now: () => new Date(), refreshIntervalMs: 10 }),
      logger,
      now: () => new Date(),
      concurrency: 1,
      leaseMs: LEASE_MS,
      maxImageBytes: 10 * 1024 * 1024,
      crashPoint: createCrashPoint(undefined),
    });

    await handOver.run(job);

    expect(handed).toEqual([job.products[0]!.generation_uuid]);
    const after = (await jobs.findByUuid(job.uuid))!;
    expect(after).toMatchObject({
      stage: 'handing_over',
      upload_key: job.upload_key,
      lease_holder: newHolder!.lease_holder,
      lease_until: newHolder!.lease_until,
    });
    expect(after.products.map((product) => product.state)).toEqual(['handed', 'waiting', 'waiting']);
    expect(await bed.store.stat(job.upload_key!)).not.toBeNull();
    expect(await bed.store.stat(batchPhotoKey(USER, job.uuid, 0, 'jpg'))).not.toBeNull();
    expect(warnings).toEqual([expect.objectContaining({ level: 'warn', msg: expect.stringContaining('lease') })]);
  });
});
