import { pollUntil, serviceCallHeaders } from '@productgen/test-kit';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  GENERATION_BUCKET,
  startDistributedServices,
  userCalls,
  type CreditEntry,
  type DistributedServices,
  type GenerationStatusAnswer,
} from '../support/distributed-services';
import { listObjectKeys } from '@productgen/test-kit/object-store';
import { freePort, signInWithDevIdentity } from '@productgen/test-kit/platform-process';
import type { ServiceProcess } from '../support/service-process';
import { plainRequest } from './batch/platform';
import { batchForm, makeZip } from '@productgen/test-kit/zips';
import { withRabbitMq } from '../support/rabbitmq';
import type { BulkJob } from '@productgen/contracts';

// Issue 10's hand-over of a batch's products to generation, in distributed mode on the real billing service, real
// RabbitMQ, the embedded MongoDB and S3 (billing, auth, the generation API, one render worker and the bulk service
// each their own process from their build):
// - with a style preset chosen, only the products whose detected category the preset was made for are created; the
//   others are skipped (SPEC §5: "non-matching products are skipped and use no credits"): they count as done, are
//   not listed among the job's generations, and billing's ledger gives back exactly their credits;
// - the bulk process killed (SIGKILL, BULK_CRASH_AT=mid-hand-over) just after generation accepted a product and
//   before bulk recorded it, then started again: every product is created exactly once and the credits charged
//   equal the images delivered.
jest.setTimeout(1_500_000);

const PHOTOS = path.resolve(__dirname, '../../../shared/photos/test');
const SIGNUP_CREDITS = 10;
const FINISH_TIMEOUT_MS = 900_000;
const PRESET_SOURCE = 'electronics/headphones-black.jpg';
const PRESET_BATCH = ['electronics/headphones-black.jpg', 'beauty/perfume-bottle.jpg', 'bags/backpack-red.jpg'];
const CRASH_BATCH = [
  'electronics/compact-camera.jpg',
  'fitness/water-bottle.jpg',
  'bags/tote-green.jpg',
  'home-decor/alarm-clock-yellow.jpg',
];

const photo = (file: string) => readFile(path.join(PHOTOS, file));
const isFinished = (job: BulkJob) => job.status === 'completed' || job.status === 'failed';

withRabbitMq('the batch hand-over test', (AMQP_URL) => {
  describe('handing a batch over to generation (distributed, real billing, RabbitMQ)', () => {
    let services: DistributedServices;
    let calls: ReturnType<typeof userCalls>;
    let bulk: ServiceProcess;
    let bulkUrl: string;
    let bulkPort: number;
    let userId: string;
    /** Images delivered so far: the balance must always be the signup credits minus these. */
    let delivered = 0;
    /** Generations whose credit entries an earlier test made. */
    const earlierGenerations = new Set<string>();

    /** The bulk process; one product handed over at a time, so a kill leaves products still waiting. */
    async function startBulk(crashAt?: string): Promise<ServiceProcess> {
      await bulk?.stop('SIGTERM');
      bulk = await services.start({
        name: crashAt ? `bulk (crash at ${crashAt})` : 'bulk',
        script: 'services/bulk/dist/main.js',
        env: {
          ...services.sharedEnv,
          PORT: String(bulkPort),
          S3_ENDPOINT: services.s3.endpoint,
          S3_ACCESS_KEY: services.s3.accessKey,
          S3_SECRET_KEY: services.s3.secretKey,
          BILLING_URL: services.urls.billing,
          GENERATION_URL: services.urls.generation,
          PROGRESS_POLL_MS: '1000',
          FANOUT_CONCURRENCY: '1',
          FANOUT_LEASE_MS: '3000',
          ...(crashAt ? { BULK_CRASH_AT: crashAt } : {}),
        },
        readyUrl: bulkUrl,
      });
      return bulk;
    }

    const bulkCall = (pathname: string, body?: FormData) =>
      plainRequest(`${bulkUrl}${pathname}`, {
        method: body ? 'POST' : 'GET',
        headers: serviceCallHeaders(userId),
        body,
      });

    async function startBatch(files: readonly string[], fields: Record<string, string>): Promise<string> {
      const zip = await makeZip(
        await Promise.all(files.map(async (file) => ({ name: path.basename(file), data: await photo(file) }))),
      );
      const created = await bulkCall('/image-gen/bulk-zip', batchForm(zip, fields));
      if (created.status !== 200) throw new Error(`bulk-zip answered ${created.status}: ${created.body.toString()}`);
      return created.json<{ bulk_job_uuid: string }>().bulk_job_uuid;
    }

    const jobOf = async (jobUuid: string) => (await bulkCall(`/image-gen/bulk-job/${jobUuid}`)).json<BulkJob>();
    const waitForJob = (jobUuid: string) =>
      pollUntil('the batch to finish', () => jobOf(jobUuid), isFinished, {
        timeoutMs: FINISH_TIMEOUT_MS,
        intervalMs: 1000,
      });

    /** The credit entries billing's own log holds, by generation, leaving out those of earlier tests. */
    async function ledgerByGeneration(): Promise<Map<string, { charged: number; givenBack: number }>> {
      const answer = await fetch(`${services.urls.billing}/credits/log?page=1&pageSize=100`, {
        headers: { connection: 'close', ...serviceCallHeaders(userId) },
      });
      const { items } = (await answer.json()) as { items: CreditEntry[] };
      const ledger = new Map<string, { charged: number; givenBack: number }>();
      for (const entry of items) {
        if (entry.generation_id === null || earlierGenerations.has(entry.generation_id)) continue;
        const sums = ledger.get(entry.generation_id) ?? { charged: 0, givenBack: 0 };
        if (entry.transaction_type === 'decrease') sums.charged += entry.amount;
        else sums.givenBack += entry.amount;
        ledger.set(entry.generation_id, sums);
      }
      return ledger;
    }

    beforeAll(async () => {
      services = await startDistributedServices(AMQP_URL, 'productgen-bulk-handover');
      bulkPort = await freePort();
      bulkUrl = `http://127.0.0.1:${bulkPort}`;
      await services.startBilling();
      await services.startAuth();
      await services.start({
        name: 'generation',
        script: 'services/generation/dist/main.js',
        env: { ...services.generationEnv, GENERATION_WORKER: 'off', SWEEP_INTERVAL_MS: '1000' },
        readyUrl: services.urls.generation,
      });
      await services.start({
        name: 'worker',
        script: 'services/generation/dist/worker.js',
        env: { ...services.generationEnv, LOG_LEVEL: 'info', WORKER_PREFETCH: '1', SWEEP_INTERVAL_MS: '1000' },
        readyLine: 'render worker running',
      });
      await startBulk();
      const signedIn = await signInWithDevIdentity(
        services.urls.auth,
        {
          email: 'bulk.handover@example.com',
          given_name: 'Bulk',
          family_name: 'Handover',
        },
        null,
        serviceCallHeaders(),
      );
      userId = signedIn.user.id;
      calls = userCalls(services.urls, userId);
      await pollUntil(
        'the signup credits',
        () => calls.creditsLeft(),
        (value) => value === SIGNUP_CREDITS,
      );
    });

    afterAll(async () => {
      await services?.stop();
    });

    test('with a preset, only products of its category are created; the skipped ones give back exactly their credits', async () => {
      const categoryOf = async (file: string) =>
        (
          await calls.generationOk<{ category: string; generation_uuid: string }>('/image-gen/category', {
            image: (await photo(file)).toString('base64'),
          })
        ).category;

      // A preset saved from a finished single creation: it is made for that photo's detected category.
      const analysed = await calls.generationOk<{ category: string; generation_uuid: string }>('/image-gen/category', {
        image: (await photo(PRESET_SOURCE)).toString('base64'),
      });
      await calls.generationOk('/imageGenFromId', { id: analysed.generation_uuid, numGenerates: 1 });
      const source = await pollUntil(
        'the preset source to finish',
        () => calls.status(analysed.generation_uuid),
        (status: GenerationStatusAnswer) =>
          status.status === 'completed' && status.images.every((image) => image.metadata.fixes_done.every(Boolean)),
        { timeoutMs: FINISH_TIMEOUT_MS, intervalMs: 500 },
      );
      expect(source.images).toHaveLength(1);
      delivered += 1;
      earlierGenerations.add(analysed.generation_uuid);
      const preset = await calls.generationOk<{ id: string }>('/style-presets', {
        generation_uuid: analysed.generation_uuid,
        image_index: 0,
        preset_name: 'studio headphones',
      });

      // Which products the preset fits, by the category generation detects for each photo.
      const categories = await Promise.all(PRESET_BATCH.map(categoryOf));
      const fitting = PRESET_BATCH.filter((_file, index) => categories[index] === analysed.category).map((file) =>
        path.basename(file),
      );
      expect(fitting.length).toBeGreaterThan(0);
      expect(fitting.length).toBeLessThan(PRESET_BATCH.length);
      const skipped = PRESET_BATCH.length - fitting.length;

      // One preset chosen: one image per product, all reserved up front.
      const jobUuid = await startBatch(PRESET_BATCH, { numGenerates: '1', presets: JSON.stringify([preset.id]) });
      expect(await calls.creditsLeft()).toBe(SIGNUP_CREDITS - delivered - PRESET_BATCH.length);

      const job = await waitForJob(jobUuid);
      // Skipped products count as done; only the created ones are the job's generations.
      expect(job).toMatchObject({
        status: 'completed',
        generations_done: PRESET_BATCH.length,
        generations_total: PRESET_BATCH.length,
      });
      expect(job.generations.map((generation) => generation.original_filename)).toEqual(fitting);
      for (const generation of job.generations) {
        expect(generation.metadata.status).toBe('completed');
        expect(generation.images).toHaveLength(1);
      }
      delivered += fitting.length;

      // Billing's ledger: one credit charged per product; exactly the skipped products' credits came back.
      const ledger = await ledgerByGeneration();
      const created = new Set(job.generations.map((generation) => generation.generation_uuid));
      expect(ledger.size).toBe(PRESET_BATCH.length);
      const perProduct = [...ledger].map(([uuid, sums]) => ({ created: created.has(uuid), ...sums }));
      expect(perProduct.filter((entry) => entry.created)).toEqual(
        fitting.map(() => ({ created: true, charged: 1, givenBack: 0 })),
      );
      expect(perProduct.filter((entry) => !entry.created)).toEqual(
        Array.from({ length: skipped }, () => ({ created: false, charged: 1, givenBack: 1 })),
      );
      expect(await calls.creditsLeft()).toBe(SIGNUP_CREDITS - delivered);
      for (const uuid of ledger.keys()) earlierGenerations.add(uuid);
    });

    test('the bulk process killed mid hand-over, then restarted: every product created once, charged = delivered', async () => {
      const dying = await startBulk('mid-hand-over');
      const jobUuid = await startBatch(CRASH_BATCH, { numGenerates: '1' });
      expect(await calls.creditsLeft()).toBe(SIGNUP_CREDITS - delivered - CRASH_BATCH.length);
      // The process kills itself once generation has accepted the second product and before bulk records it.
      if (dying.child.exitCode === null && dying.child.signalCode === null) await once(dying.child, 'exit');
      expect(dying.child.signalCode).toBe('SIGKILL');

      // Started again: once the dead process's lease lapses, the sweeper hands over what is left.
      await startBulk();
      const job = await waitForJob(jobUuid);
      expect(job).toMatchObject({
        status: 'completed',
        generations_done: CRASH_BATCH.length,
        generations_total: CRASH_BATCH.length,
      });
      expect(job.generations.map((generation) => generation.original_filename)).toEqual(
        CRASH_BATCH.map((file) => path.basename(file)),
      );
      expect(new Set(job.generations.map((generation) => generation.generation_uuid)).size).toBe(CRASH_BATCH.length);
      for (const generation of job.generations) {
        expect(generation.metadata.status).toBe('completed');
        expect(generation.images).toHaveLength(1);
      }

      // Each product's objects once: its original, the matte analysis cut it out by, and a base and a final image.
      const keys = await listObjectKeys(services.s3, GENERATION_BUCKET, 'generations/');
      for (const generation of job.generations) {
        const own = keys.filter((key) => key.startsWith(`generations/${generation.generation_uuid}/`));
        expect(own.filter((key) => key.includes('/original.'))).toHaveLength(1);
        expect(own.filter((key) => key.endsWith('/cutout/matte.png'))).toHaveLength(1);
        expect(own.filter((key) => key.endsWith('/final.jpg'))).toHaveLength(1);
        expect(own.filter((key) => key.endsWith('/base.jpg'))).toHaveLength(1);
        expect(own).toHaveLength(4);
      }
      // The upload is gone once every product was handed over.
      expect(await listObjectKeys(services.s3, 'productgen-bulk', '')).toEqual([]);

      // Charged = delivered: one credit per product, none given back, none charged twice.
      const ledger = await ledgerByGeneration();
      expect([...ledger.keys()].sort()).toEqual(job.generations.map((generation) => generation.generation_uuid).sort());
      for (const sums of ledger.values()) expect(sums).toEqual({ charged: 1, givenBack: 0 });
      delivered += CRASH_BATCH.length;
      expect(await calls.creditsLeft()).toBe(SIGNUP_CREDITS - delivered);
    });
  });
});
