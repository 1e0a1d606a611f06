import { spawn } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import { pollUntil } from '@productgen/test-kit';

/** One load run's figures, as the resilience table prints them. */
export interface LoadFigures {
  target: string;
  sessions: number;
  /** Requests a second each session sends; undefined: as fast as it is answered. */
  pace?: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Connection errors and timeouts. */
  errors: number;
  non2xx: number;
  status5xx: number;
}

/**
 * `sessions` connections for `seconds` against one URL (autocannon; loopback only, bounded by time). Each
 * connection is one session: it sends the session key of its own index, as that many signed-in browsers would.
 * Without `pace` each sends its next request as soon as the last is answered: the most the server answers, but then
 * latency only tells how long the queue is (Little's law: sessions ÷ requests per second). With `pace` each sends
 * that many requests a second, as a browser polling and clicking does: the latency a seller sees at that load.
 */
export async function loadRun(options: {
  target: string;
  url: string;
  sessionKeys: readonly string[];
  seconds: number;
  pace?: number;
}): Promise<LoadFigures> {
  let next = 0;
  const result = await autocannon({
    url: options.url,
    connections: options.sessionKeys.length,
    duration: options.seconds,
    ...(options.pace === undefined ? {} : { connectionRate: options.pace }),
    setupClient: (client) => {
      const key = options.sessionKeys[next++ % options.sessionKeys.length]!;
      client.setHeaders({ 'x-session-key': key, cookie: `session_key=${key}` });
    },
  });
  return {
    target: options.target,
    sessions: options.sessionKeys.length,
    pace: options.pace,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    status5xx: result['5xx'],
  };
}

/** The bare Express reference (bare-express.js) in its own process; `stop` ends it. */
export async function startBareExpress(): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [path.join(__dirname, 'bare-express.js')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const origin = await pollUntil(
    'the bare Express app to listen',
    async () => {
      if (child.exitCode !== null) throw new Error(`bare-express.js exited with ${child.exitCode}`);
      return output.trim();
    },
    (line) => line.startsWith('http://'),
    { intervalMs: 50 },
  );
  return {
    url: `${origin}/auth/me`,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
