import { pollUntil, serviceCallHeaders } from '@productgen/test-kit';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import amqp from 'amqplib';
import {
  retirePresetLook,
  startDistributedServices,
  userCalls,
  type DistributedServices,
  type GenerationStatusAnswer,
} from '../support/distributed-services';
import { signInWithDevIdentity } from '@productgen/test-kit/platform-process';
import type { ServiceProcess } from '../support/service-process';
import { withRabbitMq } from '../support/rabbitmq';

// Issue 9 item 2, "no credit without an image or a give-back", in distributed mode on the real billing service,
// real RabbitMQ, the embedded MongoDB and S3. The generation process (API and in-process render worker) is killed
// with SIGKILL at each step of a creation: after billing reserved the credits, before the render job is queued, in
// the middle of the render, and before a failed image's credit is given back. The kill comes from the process itself
// (GENERATION_CRASH_AT=<step>, read once in config.ts: a real SIGKILL at exactly that step, which no timing from
// outside can hit reliably); billing going down is a fault from outside (its process stopped, then started again).
// After each restart the test waits for the state a user waits for (the generation finished) and checks billing's
// ledger: every charged credit became an image or a give-back, and the balance is the start minus the images made.
jest.setTimeout(900_000);

const PHOTO = path.resolve(__dirname, '../../../shared/photos/test/electronics/headphones-black.jpg');
const SIGNUP_CREDITS = 10;
const FINISH_TIMEOUT_MS = 300_000;
const NOTHING_CHARGED = 'The images could not be made. No credits were taken; please try again.';

/** Short sweep periods, so each fault is settled within seconds (the defaults are minutes). */
const SWEEP_ENV = {
  SWEEP_INTERVAL_MS: '300',
  // Generous: a loaded machine must not turn a slow reservation into an unknown one.
  INTERNAL_TIMEOUT_MS: '10000',
  RESERVING_TIMEOUT_MS: '21000',
  PUBLISH_GRACE_MS: '1000',
  STUCK_AFTER_MS: '120000',
  SWEEP_LEASE_MS: '1500',
  // The redelivery after a crash is the last try: a job still failing then is dead-lettered at once.
  WORKER_MAX_DELIVERIES: '2',
};

const isFinished = (status: GenerationStatusAnswer) =>
  (status.status === 'completed' || status.status === 'failed') &&
  status.images.every((image) => image.metadata.fixes_done.every(Boolean));

withRabbitMq('the generation fault test', (AMQP_URL) => {
  describe('the generation process killed at each step of a creation (distributed mode, real billing)', () => {
    let services: DistributedServices;
    let calls: ReturnType<typeof userCalls>;
    let billing: ServiceProcess;
    let generation: ServiceProcess | undefined;
    let photo: string;
    /** Images delivered so far: the balance must always be the signup credits minus these. */
    let delivered = 0;
    const finishedGenerations: string[] = [];

    /** The one generation process (API and render worker), optionally set to kill itself at a step. */
    async function startGeneration(crashAt?: string): Promise<ServiceProcess> {
      await generation?.stop('SIGTERM');
      generation = await services.start({
        name: crashAt ? `generation (crash at ${crashAt})` : 'generation',
        script: 'services/generation/dist/main.js',
        env: { ...services.generationEnv, ...SWEEP_ENV, ...(crashAt ? { GENERATION_CRASH_AT: crashAt } : {}) },
        readyUrl: services.urls.generation,
      });
      return generation;
    }

    /** Resolves once the process has ended, and checks it was killed (not a clean exit or a crash of its own). */
    async function killedBySelf(service: ServiceProcess): Promise<void> {
      if (service.child.exitCode === null && service.child.signalCode === null) await once(service.child, 'exit');
      expect(service.child.signalCode).toBe('SIGKILL');
    }

    async function analyse(): Promise<string> {
      return (await calls.generationOk<{ generation_uuid: string }>('/image-gen/category', { image: photo }))
        .generation_uuid;
    }

    /**
     * Starts a creation in a process set to die at a later step: the answer is lost when the step comes before the
     * answer, and a 200 otherwise.
     */
    async function createThenCrash(body: object): Promise<void> {
      const answer = await calls.generation('/imageGenFromId', body).catch(() => undefined);
      if (answer) expect(answer.status).toBe(200);
    }

    const waitForFinish = (uuid: string) =>
      pollUntil(`generation ${uuid} to finish`, () => calls.status(uuid), isFinished, {
        timeoutMs: FINISH_TIMEOUT_MS,
        intervalMs: 250,
      });

    async function ledgerOf(uuid: string): Promise<{ charged: number; givenBack: number }> {
      const entries = await calls.creditEntriesOf(uuid);
      const sum = (type: 'increase' | 'decrease') =>
        entries.filter((entry) => entry.transaction_type === type).reduce((total, entry) => total + entry.amount, 0);
      return { charged: sum('decrease'), givenBack: sum('increase') };
    }

    /**
     * The invariant of the issue, for one finished generation: each charged credit is an image or a give-back, and
     * the balance is the signup credits minus every image delivered so far.
     */
    async function expectEveryCreditAccountedFor(uuid: string, status: GenerationStatusAnswer, charged: number) {
      const ledger = await ledgerOf(uuid);
      expect(ledger.charged).toBe(charged);
      expect(status.images.length + ledger.givenBack).toBe(ledger.charged);
      delivered += status.images.length;
      finishedGenerations.push(uuid);
      expect(await calls.creditsLeft()).toBe(SIGNUP_CREDITS - delivered);
    }

    /** A creation whose process is killed at `step`, then started again: it finishes with every credit settled. */
    async function crashAndRecover(step: string, images: number) {
      const uuid = await analyse();
      const dying = await startGeneration(step);
      await createThenCrash({ id: uuid, numGenerates: images });
      await killedBySelf(dying);

      await startGeneration();
      const finished = await waitForFinish(uuid);
      expect(finished).toMatchObject({ status: 'completed', gen_error: null });
      expect(finished.images).toHaveLength(images);
      expect(new Set(finished.images.map((image) => image.id)).size).toBe(images);
      await expectEveryCreditAccountedFor(uuid, finished, images);
    }

    beforeAll(async () => {
      photo = (await readFile(PHOTO)).toString('base64');
      services = await startDistributedServices(AMQP_URL, 'productgen-generation-fault');
      // Billing first: its queue for user.signed_up must exist before auth signs anybody up.
      billing = await services.startBilling();
      await services.startAuth();
      await startGeneration();
      const signedIn = await signInWithDevIdentity(
        services.urls.auth,
        {
          email: 'fault.test@example.com',
          given_name: 'Fault',
          family_name: 'Test',
        },
        null,
        serviceCallHeaders(),
      );
      calls = userCalls(services.urls, signedIn.user.id);
      await pollUntil('the signup credits', calls.creditsLeft, (credits) => credits === SIGNUP_CREDITS);
    });

    afterAll(async () => {
      await services?.stop();
    });

    test('killed after billing reserved the credits: the sweeper finds them taken and queues the job', async () => {
      await crashAndRecover('after-reserve', 1);
    });

    test('killed before the render job was queued: the sweeper publishes it (the outbox)', async () => {
      await crashAndRecover('before-queue', 1);
    });

    test('killed in the middle of the render: the job comes back and the images are made once', async () => {
      await crashAndRecover('mid-render', 2);
    });

    test('billing down while reserving: the sweeper asks billing afterwards and fails it, nothing taken', async () => {
      const uuid = await analyse();
      const creditsBefore = await calls.creditsLeft();
      await billing.stop('SIGTERM');
      const refused = await calls.generation('/imageGenFromId', { id: uuid, numGenerates: 2 });
      expect(refused.status).toBeGreaterThanOrEqual(500);
      expect((await calls.status(uuid)).status).toBe('pending');

      billing = await services.startBilling();
      const finished = await waitForFinish(uuid);
      expect(finished).toEqual({
        analyzed: true,
        images: [],
        gen_error: NOTHING_CHARGED,
        status: 'failed',
        has_watermark: false,
      });
      expect(await calls.creditsLeft()).toBe(creditsBefore);
      expect(await ledgerOf(uuid)).toEqual({ charged: 0, givenBack: 0 });
    });

    test('killed before a failed image was given back, billing down after the restart: the credit still comes back', async () => {
      // Two presets from an earlier creation; one names a look the renderer no longer has, so that image fails.
      const source = finishedGenerations[0]!;
      const save = async (index: number, name: string) =>
        (
          await calls.generationOk<{ id: string }>('/style-presets', {
            generation_uuid: source,
            image_index: index,
            preset_name: name,
          })
        ).id;
      const kept = await save(0, 'kept look');
      const broken = await save(0, 'retired look');
      await retirePresetLook(services.mongo.url, broken);

      const uuid = await analyse();
      const dying = await startGeneration('before-give-back');
      await createThenCrash({ id: uuid, numGenerates: 2, presets: [kept, broken] });
      await killedBySelf(dying);

      // Billing is down when the generation process comes back: the redelivered job makes the other image, cannot
      // give the credit back, and is dead-lettered (its last delivery); the drain and the sweeper keep it owed.
      await billing.stop('SIGTERM');
      const restarted = await startGeneration();
      await pollUntil(
        'the dead-lettered job to be drained',
        async () => restarted.output(),
        (output) => output.includes('dead-lettered render job'),
        { timeoutMs: FINISH_TIMEOUT_MS },
      );
      expect((await calls.status(uuid)).status).toBe('processing');

      billing = await services.startBilling();
      const finished = await waitForFinish(uuid);
      expect(finished.status).toBe('completed');
      expect(finished.images).toHaveLength(1);
      expect(finished.gen_error).toMatch(
        /^1 of 2 images could not be made and its credit was given back\..*retired-look/,
      );
      await expectEveryCreditAccountedFor(uuid, finished, 2);
      expect(await ledgerOf(uuid)).toEqual({ charged: 2, givenBack: 1 });

      // Nothing is left in the render queue's dead-letter queue.
      const connection = await amqp.connect(services.vhost.url);
      try {
        const channel = await connection.createChannel();
        expect((await channel.checkQueue('generation.render.dlq')).messageCount).toBe(0);
      } finally {
        await connection.close();
      }
    });
  });
});
