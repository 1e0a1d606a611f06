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
});
