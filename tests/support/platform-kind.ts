import { startDistributedPlatform } from './distributed-platform';
import { startPlatformProcess, type PlatformProcess } from '@productgen/test-kit/platform-process';

/** The two ways the platform runs: one process (`npm start`) or every service its own process. */
export type PlatformKind = 'npm start' | 'npm run start:distributed';

let current: PlatformKind = 'npm start';

/**
 * Makes the e2e suites of this test file start the given platform. A thin test file calls it, then requires a
 * suite file, so one suite body runs once on each kind (each in its own test file, each with its own platform).
 */
export function runSuitesAgainst(kind: PlatformKind): void {
  current = kind;
}

export function platformKind(): PlatformKind {
  return current;
}

/** Starts the platform this test file runs against; stop it with its `stop` as either kind. */
export function startPlatformUnderTest(options: {
  dataDir: string;
  startTimeoutMs?: number;
}): Promise<PlatformProcess> {
  if (current === 'npm start') return startPlatformProcess(options);
  const amqpUrl = process.env.AMQP_URL;
  if (!amqpUrl) throw new Error('npm run start:distributed needs RabbitMQ: set AMQP_URL (CI does)');
  return startDistributedPlatform({ dataDir: options.dataDir, amqpUrl });
}
