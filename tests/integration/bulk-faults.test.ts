import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startDistributedPlatform, type DistributedPlatform } from '../support/distributed-platform';
import { GENERATION_BUCKET } from '../support/distributed-services';
import { listObjectKeys } from '@productgen/test-kit/object-store';
import { signInWithDevIdentity } from '@productgen/test-kit/platform-process';
import { pollUntil } from '@productgen/test-kit';
import { callAs, creditsOf } from './batch/platform';
import { batchForm, makeZip } from '@productgen/test-kit/zips';
import { closeVhostConnections, withRabbitMq } from '../support/rabbitmq';
import { waitForExit } from '../support/rehearsal-processes';
import type { BulkJob } from '@productgen/contracts';

// Issue 10's faults on real RabbitMQ, on the distributed rehearsal (`npm run start:distributed --scale
// generation-worker=2`: every service, two render workers and the gateway as their own processes with the compose
// file's commands and environment, on a throwaway virtual host and the embedded MongoDB and S3 processes). In the
// middle of a batch sent through the gateway one render worker is killed (SIGKILL) and every connection of the
// virtual host is closed by the broker (rabbitmqctl close_all_connections --vhost: what a broker restart does to the
// clients, without restarting the broker every other suite shares). The batch must still complete with every image
// exactly once, no object twice, and the credits charged equal to the images delivered.
//
// "In the middle" must hold on any machine: two workers render four generations at once (WORKER_PREFETCH 2), so a
// batch of three could finish all together, before the faults (CI saw it). Eight one-image products outlast one round
// of renders, and the other worker is frozen (SIGSTOP) while the first is killed, so no render can finish between the
// count and the faults; it resumes (SIGCONT) once the broker has dropped its connection.
jest.setTimeout(1_500_000);

const PHOTOS = path.resolve(__dirname, '../../../shared/photos/test');
const PRODUCTS = [
  'electronics/headphones-black.jpg',
  'beauty/perfume-bottle.jpg',
  'bags/backpack-red.jpg',
  'kitchen/moka-pot.jpg',
  'home-decor/alarm-clock-yellow.jpg',
  'fitness/water-bottle.jpg',
  'furniture/shell-chair-black.jpg',
  'jewelry/watch-gold-mesh.jpg',
];
const PER_PRODUCT = 1;
const SIGNUP_CREDITS = 10;

withRabbitMq('the batch fault test', (AMQP_URL) => {
  describe('a batch survives a killed worker and a broker dropping every connection (start:distributed)', () => {
    let dataDir: string;
    let platform: DistributedPlatform;
    let sessionKey: string;

    /** A call through the gateway, as the signed-in user. */
    const api = (pathname: string, body?: FormData) => callAs(sessionKey, platform.apiUrl, pathname, body);
    const credits = () => creditsOf(sessionKey, platform.apiUrl);

    beforeAll(async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'productgen-bulk-faults-'));
      platform = await startDistributedPlatform({
        dataDir,
        amqpUrl: AMQP_URL,
        args: ['--scale', 'generation-worker=2'],
      });
      const signedIn = await signInWithDevIdentity(platform.apiUrl, {
        email: 'bulk.faults@example.com',
        given_name: 'Bulk',
        family_name: 'Faults',
      });
      sessionKey = signedIn.session_key;
      await pollUntil('the signup credits', credits, (value) => value === SIGNUP_CREDITS);
    });

    afterAll(async () => {
      await platform?.stop('SIGTERM');
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    test('every image exactly once, no object twice, charged = delivered', async () => {
      const zip = await makeZip(
        await Promise.all(
          PRODUCTS.map(async (file) => ({ name: path.basename(file), data: await readFile(path.join(PHOTOS, file)) })),
        ),
      );
      const created = await api('/image-gen/bulk-zip', batchForm(zip, { numGenerates: String(PER_PRODUCT) }));
      expect(created.status).toBe(200);
      const jobUuid = created.json<{ bulk_job_uuid: string }>().bulk_job_uuid;
      // /auth/me shows billing's balance once auth has had billing's credits.balance_changed event.
      const charged = SIGNUP_CREDITS - PRODUCTS.length * PER_PRODUCT;
      await pollUntil('the reserved credits gone', credits, (value) => value === charged);
      const job = () => api(`/image-gen/bulk-job/${jobUuid}`).then((answer) => answer.json<BulkJob>());

      // Mid-batch: one product done, the others still rendering or waiting.
      await pollUntil('the first product done', job, (value) => value.generations_done >= 1, {
        timeoutMs: 900_000,
        intervalMs: 250,
      });
      const killed = platform.pids['generation-worker-1']!;
      const frozen = platform.pids['generation-worker-2']!;
      process.kill(frozen, 'SIGSTOP');
      try {
        process.kill(killed, 'SIGKILL');
        await waitForExit(killed, 'render worker 1');
        const beforeDrop = (await job()).generations_done;
        expect(beforeDrop).toBeLessThan(PRODUCTS.length);
        await closeVhostConnections(platform.vhost);
      } finally {
        process.kill(frozen, 'SIGCONT');
      }

      const finished = await pollUntil(
        'the batch to finish',
        job,
        (value) => value.status === 'completed' || value.status === 'failed',
        { timeoutMs: 900_000, intervalMs: 1000 },
      );
      expect(finished).toMatchObject({
        status: 'completed',
        generations_done: PRODUCTS.length,
        generations_total: PRODUCTS.length,
      });
      for (const generation of finished.generations) {
        expect(generation.metadata.status).toBe('completed');
        expect(generation.images).toHaveLength(PER_PRODUCT);
      }

      // Per generation: the original, the matte analysis cut the product out by, and a base and a final image per
      // variation; nothing else, nothing twice.
      const keys = await listObjectKeys(platform.s3, GENERATION_BUCKET, 'generations/');
      expect(new Set(keys).size).toBe(keys.length);
      for (const generation of finished.generations) {
        const own = keys.filter((key) => key.startsWith(`generations/${generation.generation_uuid}/`));
        expect(own.filter((key) => key.includes('/original.'))).toHaveLength(1);
        expect(own.filter((key) => key.endsWith('/cutout/matte.png'))).toHaveLength(1);
        expect(own.filter((key) => key.endsWith('/final.jpg'))).toHaveLength(PER_PRODUCT);
        expect(own.filter((key) => key.endsWith('/base.jpg'))).toHaveLength(PER_PRODUCT);
      }
      expect(keys).toHaveLength(PRODUCTS.length * (2 + 2 * PER_PRODUCT));
      // Charged = delivered: every reserved credit became an image, none was given back or charged twice.
      expect(await credits()).toBe(charged);
    });
  });
});
