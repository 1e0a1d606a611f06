import { spawn } from 'node:child_process';
import type { S3Access } from '@productgen/test-kit/object-store';
import { repoRoot, type PlatformProcess } from '@productgen/test-kit/platform-process';
import { createThrowawayVhost } from './rabbitmq';

/** Starting 13 processes takes a minute on an idle machine, several on a loaded one. */
export const DISTRIBUTED_START_TIMEOUT_MS = 600_000;

/**
 * Runs `npm run start:distributed` (scripts/distributed/start.mjs) on free ports, the given data folder and a
 * throwaway RabbitMQ virtual host, and resolves once it prints that every process is healthy. Its addresses are
 * given as `localhost`, the host the shell's runtime config names for the API, so a suite written against
 * `npm start` (startPlatformProcess) runs unchanged. `stop` ends every process the launcher started and removes the
 * virtual host: SIGKILL kills the whole process group at once, another signal lets the launcher drain them.
 */
function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error; // ESRCH: every process had ended already
  }
}

/** The rehearsal as a platform, plus what a fault test needs to break it. */
export interface DistributedPlatform extends PlatformProcess {
  /** The throwaway RabbitMQ virtual host every process connects to. */
  vhost: string;
  /** Process id of each process the launcher started, by name (`generation-worker-2` when scaled). */
  pids: Record<string, number>;
  mongoUrl: string;
  s3: S3Access;
}

export async function startDistributedPlatform(options: {
  dataDir: string;
  amqpUrl: string;
  env?: Record<string, string>;
  /** More arguments of start.mjs, e.g. ['--scale', 'generation-worker=2']. */
  args?: string[];
  startTimeoutMs?: number;
}): Promise<DistributedPlatform> {
  const vhost = await createThrowawayVhost(options.amqpUrl, 'productgen-distributed');
  const child = spawn(
    process.execPath,
    ['scripts/distributed/start.mjs', '--data-dir', options.dataDir, '--free-ports', ...(options.args ?? [])],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        AMQP_URL: vhost.url,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'development',
        DEV_IDENTITY_PROVIDER: 'true',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so that a SIGKILL reaches every service, worker and host it started.
      detached: true,
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) {
      if (signal !== 'SIGKILL') child.kill(signal);
      else killGroup(child.pid!);
    }
    const code = await exited;
    await vhost.remove();
    return code;
  };

  try {
    const ready = await new Promise<string>((resolve, reject) => {
      const timeoutMs = options.startTimeoutMs ?? DISTRIBUTED_START_TIMEOUT_MS;
      const timer = setTimeout(
        () => reject(new Error(`start:distributed was not ready after ${timeoutMs} ms:\n${output.slice(-5000)}`)),
        timeoutMs,
      );
      child.stdout.on('data', () => {
        const line = /distributed platform ready (.*)/.exec(output)?.[1];
        if (line) {
          clearTimeout(timer);
          resolve(line);
        }
      });
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`start:distributed exited with ${code} before it was ready:\n${output.slice(-5000)}`));
      });
    });
    const summary = JSON.parse(ready) as { web: string; api: string } & Pick<
      DistributedPlatform,
      'pids' | 'mongoUrl' | 's3'
    >;
    const asLocalhost = (url: string) => url.replace('//127.0.0.1:', '//localhost:');
    return {
      webUrl: asLocalhost(summary.web),
      apiUrl: asLocalhost(summary.api),
      child,
      output: () => output,
      stop,
      vhost: vhost.name,
      pids: summary.pids,
      mongoUrl: summary.mongoUrl,
      s3: summary.s3,
    };
  } catch (error) {
    await stop('SIGKILL');
    throw error;
  }
}
