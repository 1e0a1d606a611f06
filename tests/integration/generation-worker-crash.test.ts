import { pollUntil, serviceCallHeaders } from '@productgen/test-kit';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  GENERATION_BUCKET,
  retirePresetLook,
  startDistributedServices,
  userCalls,
  type DistributedServices,
  type GenerationStatusAnswer,
} from '../support/distributed-services';
import { listObjectKeys } from '@productgen/test-kit/object-store';
import { signInWithDevIdentity } from '@productgen/test-kit/platform-process';
import type { ServiceProcess } from '../support/service-process';
import { withRabbitMq } from '../support/rabbitmq';

// Issue 5's faults, in distributed mode: auth, billing, the generation API (GENERATION_WORKER=off) and a render
// worker each run as their own process from their build, on real RabbitMQ, the embedded MongoDB and embedded S3.
// The worker is killed (SIGKILL, no goodbye) in the middle of a 5-image generation and a new one is started: the
// generation completes with exactly 5 images, none twice, charged once. Then one image is broken on purpose: its
// credit comes back through the real billing service and the error is shown. The tests run in order.
jest.setTimeout(300_000);

const PHOTO = path.resolve(__dirname, '../../../shared/photos/test/electronics/headphones-black.jpg');
const SIGNUP_CREDITS = 10;
const IMAGES = 5;
const GENERATION_TIMEOUT_MS = 180_000;

const isFinished = (status: GenerationStatusAnswer) => status.status === 'completed' || status.status === 'failed';
const isFixed = (image: GenerationStatusAnswer['images'][number]) => image.metadata.fixes_done.every(Boolean);

withRabbitMq('the render worker crash test', (AMQP_URL) => {
  describe('a render worker killed in the middle of a generation (distributed mode, RabbitMQ)', () => {
    let services: DistributedServices;
    let calls: ReturnType<typeof userCalls>;
    const workers: ServiceProcess[] = [];
    let photo: string;
    let generationUuid: string;

    async function startWorker(name: string): Promise<ServiceProcess> {
      const worker = await services.start({
        name,
        script: 'services/generation/dist/worker.js',
        // The worker says it is running at info level; that line is how the test knows it consumes.
        env: { ...services.generationEnv, LOG_LEVEL: 'info', WORKER_PREFETCH: '1' },
        readyLine: 'render worker running',
      });
      workers.push(worker);
      return worker;
    }

    const generationApi = <T>(pathname: string, json?: unknown) => calls.generationOk<T>(pathname, json);
    const statusOf = (uuid: string) => calls.status(uuid);
    const creditsLeft = () => calls.creditsLeft();
    const creditEntriesOf = (uuid: string) => calls.creditEntriesOf(uuid);

    async function analyse(): Promise<string> {
      const analysis = await generationApi<{ generation_uuid: string }>('/image-gen/category', { image: photo });
      return analysis.generation_uuid;
    }

    beforeAll(async () => {
      photo = (await readFile(PHOTO)).toString('base64');
      services = await startDistributedServices(AMQP_URL, 'productgen-worker-crash');
      // Billing first: its queue for user.signed_up must exist before auth signs anybody up.
      await services.startBilling();
      await Promise.all([
        services.startAuth(),
        services.start({
          name: 'generation',
          script: 'services/generation/dist/main.js',
          env: { ...services.generationEnv, GENERATION_WORKER: 'off' },
          readyUrl: services.urls.generation,
        }),
        // Started before anything is created: the render queue exists once a worker has subscribed.
        startWorker('worker 1'),
      ]);
    });

    afterAll(async () => {
      await services?.stop();
    });

    test('a user signs in through auth and billing grants the signup credits through RabbitMQ', async () => {
      const signedIn = await signInWithDevIdentity(
        services.urls.auth,
        {
          email: 'crash.test@example.com',
          given_name: 'Crash',
          family_name: 'Test',
        },
        null,
        serviceCallHeaders(),
      );
      calls = userCalls(services.urls, signedIn.user.id);
      expect(await pollUntil('the signup credits', creditsLeft, (credits) => credits === SIGNUP_CREDITS)).toBe(
        SIGNUP_CREDITS,
      );
    });

    test('killing the worker mid-generation and starting another: 5 images, none twice, charged once', async () => {
      generationUuid = await analyse();
      await generationApi('/imageGenFromId', { id: generationUuid, numGenerates: IMAGES });

      // The first image is shown while the others are still being made: the moment to pull the plug.
      const firstWorker = workers[0]!;
      await pollUntil(
        'the first image',
        () => statusOf(generationUuid),
        (status) => status.images.length > 0 || isFinished(status),
        { timeoutMs: GENERATION_TIMEOUT_MS, intervalMs: 50 },
      );
      await firstWorker.stop('SIGKILL');
      expect(firstWorker.child.signalCode).toBe('SIGKILL');

      // Nothing renders now, so this is where the killed worker left the generation: started, not finished.
      const leftBehind = await statusOf(generationUuid);
      expect(leftBehind.status).toBe('processing');
      expect(leftBehind.images.filter(isFixed).length).toBeLessThan(IMAGES);

      // RabbitMQ gives the unacknowledged job to the next worker.
      await startWorker('worker 2');
      const finished = await pollUntil('the generation to finish', () => statusOf(generationUuid), isFinished, {
        timeoutMs: GENERATION_TIMEOUT_MS,
        intervalMs: 250,
      });
      expect(finished).toMatchObject({ status: 'completed', gen_error: null });
      expect(finished.images).toHaveLength(IMAGES);
      expect(new Set(finished.images.map((image) => image.id)).size).toBe(IMAGES);
      expect(finished.images.every(isFixed)).toBe(true);

      // Every image once in the store: the matte analysis cut the product out by, the original, and each image's
      // base and finished version (fixed keys).
      const keys = await listObjectKeys(services.s3, GENERATION_BUCKET, `generations/${generationUuid}/`);
      const prefix = `generations/${generationUuid}`;
      expect(keys).toEqual([
        `${prefix}/cutout/matte.png`,
        ...Array.from({ length: IMAGES }, (_, index) => [
          `${prefix}/images/${index}/base.jpg`,
          `${prefix}/images/${index}/final.jpg`,
        ]).flat(),
        expect.stringMatching(new RegExp(`^${prefix}/original\\.(jpg|png|webp)$`)),
      ]);
    });

    test('billing charged the generation exactly once: 5 credits left, 5 debits and no give-back', async () => {
      expect(await creditsLeft()).toBe(SIGNUP_CREDITS - IMAGES);
      const entries = await creditEntriesOf(generationUuid);
      expect(entries).toHaveLength(IMAGES);
      expect(entries.every((entry) => entry.transaction_type === 'decrease' && entry.amount === 1)).toBe(true);
    });

    test('an image broken on purpose gets its credit back from billing and its error is shown', async () => {
      const keep = await generationApi<{ id: string }>('/style-presets', {
        generation_uuid: generationUuid,
        image_index: 0,
        preset_name: 'kept look',
      });
      const broken = await generationApi<{ id: string }>('/style-presets', {
        generation_uuid: generationUuid,
        image_index: 1,
        preset_name: 'retired look',
      });
      // A preset saved by an older version whose look the renderer no longer has: that image cannot be made.
      await retirePresetLook(services.mongo.url, broken.id);

      const creditsBefore = await creditsLeft();
      const uuid = await analyse();
      await generationApi('/imageGenFromId', { id: uuid, numGenerates: 2, presets: [keep.id, broken.id] });
      const finished = await pollUntil('the generation to finish', () => statusOf(uuid), isFinished, {
        timeoutMs: GENERATION_TIMEOUT_MS,
        intervalMs: 250,
      });
      expect(finished.status).toBe('completed');
      expect(finished.images).toHaveLength(1);
      expect(finished.gen_error).toMatch(
        /^1 of 2 images could not be made and its credit was given back\..*retired-look/,
      );

      expect(await creditsLeft()).toBe(creditsBefore - 2 + 1);
      const entries = await creditEntriesOf(uuid);
      expect(entries.filter((entry) => entry.transaction_type === 'decrease')).toHaveLength(2);
      expect(entries.filter((entry) => entry.transaction_type === 'increase')).toEqual([
        expect.objectContaining({ amount: 1 }),
      ]);
    });
  });
});
