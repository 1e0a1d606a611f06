import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** Debian installs the tool outside a normal user's PATH. */
const RABBITMQCTL_CANDIDATES = ['rabbitmqctl', '/usr/sbin/rabbitmqctl'];

async function rabbitmqctl(args: string[]): Promise<void> {
  let lastError: unknown;
  for (const command of RABBITMQCTL_CANDIDATES) {
    try {
      await run(command, ['-q', ...args], { timeout: 60_000 });
      return;
    } catch (error) {
      lastError = error;
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') break;
    }
  }
  throw new Error(
    `rabbitmqctl ${args.join(' ')} failed. The test needs rabbitmqctl on the broker's machine (as a user allowed ` +
      `to run it) to make a virtual host of its own: ${(lastError as Error).message}`,
    { cause: lastError },
  );
}

export interface ThrowawayVhost {
  /** The broker URL with this virtual host. */
  url: string;
  name: string;
  /** Deletes the virtual host and with it every exchange, queue and message made in it. */
  remove(): Promise<void>;
}

/**
 * A RabbitMQ virtual host of its own for one test run. The services name their exchange and queues themselves
 * (`productgen`, `generation.render`, ...), so processes of another run on the same broker would otherwise share
 * those queues and take each other's messages; deleting the virtual host afterwards removes all of it at once.
 */
export async function createThrowawayVhost(amqpUrl: string, prefix: string): Promise<ThrowawayVhost> {
  const name = `${prefix}-${randomBytes(4).toString('hex')}`;
  const user = decodeURIComponent(new URL(amqpUrl).username) || 'guest';
  await rabbitmqctl(['add_vhost', name]);
  try {
    await rabbitmqctl(['set_permissions', '-p', name, user, '.*', '.*', '.*']);
  } catch (error) {
    await rabbitmqctl(['delete_vhost', name]);
    throw error;
  }
  return { url: vhostUrl(amqpUrl, name), name, remove: () => rabbitmqctl(['delete_vhost', name]) };
}

/** The broker URL with the given virtual host. */
export function vhostUrl(amqpUrl: string, vhost: string): string {
  const url = new URL(amqpUrl);
  url.pathname = `/${encodeURIComponent(vhost)}`;
  return url.toString();
}

/**
 * Closes every client connection of one virtual host, from the broker's side: what a broker restart does to the
 * clients (each must reconnect, and its unacknowledged deliveries go back to their queues), without restarting the
 * broker every other suite on the machine shares (`rabbitmqctl stop_app` cannot be limited to one virtual host).
 */
export async function closeVhostConnections(vhost: string): Promise<void> {
  await rabbitmqctl(['close_all_connections', '--vhost', vhost, 'fault test: broker restart']);
}

/**
 * Declares tests that need a real RabbitMQ: they get the broker at AMQP_URL (CI sets it, `.ci/run` starts one);
 * without it, one skipped test says what is missing.
 */
export function withRabbitMq(what: string, declare: (amqpUrl: string) => void): void {
  const amqpUrl = process.env.AMQP_URL;
  if (!amqpUrl) test.skip(`${what} needs RabbitMQ: set AMQP_URL (CI does) to run it`, () => undefined);
  else declare(amqpUrl);
}
