import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startDistributedPlatform } from '../support/distributed-platform';
import { withRabbitMq } from '../support/rabbitmq';

// The launcher of `npm run start:distributed` (scripts/distributed/start.mjs) on a compose file of stand-ins: a
// process that ends while the others are still starting fails the start at once, naming it, instead of leaving a
// platform with a hole in it (or waiting out another service's health check).
jest.setTimeout(120_000);

withRabbitMq('the distributed launcher', (amqpUrl) => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'productgen-launcher-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  test('a service that exits while the platform starts fails the start with its name and exit code', async () => {
    const compose = path.join(__dirname, 'fixtures', 'compose-with-crashing-service.yml');
    await expect(startDistributedPlatform({ dataDir, amqpUrl, args: ['--compose', compose] })).rejects.toThrow(
      /crasher exited \(3\) while the platform was starting/,
    );
  });

  describe('a compose file with a MongoDB that requires sign-in', () => {
    const compose = path.join(__dirname, 'fixtures', 'compose-with-required-variables.yml');

    test('a MONGO_URL with credentials is pointed at the local MongoDB, whose password is made up when unset', async () => {
      // MONGO_INITDB_ROOT_USERNAME comes from .env.example; its password is required there but left empty.
      const platform = await startDistributedPlatform({
        dataDir,
        amqpUrl,
        args: ['--compose', compose],
        env: { FIXTURE_REQUIRED: 'set', MONGO_INITDB_ROOT_PASSWORD: '' },
      });
      try {
        expect(platform.mongoUrl).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+/);
        // The client completed (it exits 4 on any other URL), so the platform came up.
        expect(platform.output()).not.toMatch(/mongo-client failed/);
      } finally {
        await platform.stop();
      }
    });

    test('a required variable left unset stops the start with its message, as compose does', async () => {
      await expect(
        startDistributedPlatform({ dataDir, amqpUrl, args: ['--compose', compose], env: { FIXTURE_REQUIRED: '' } }),
      ).rejects.toThrow(/start:distributed failed: FIXTURE_REQUIRED: set FIXTURE_REQUIRED in \.env/);
    });
  });
});
