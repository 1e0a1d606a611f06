import { spawn } from 'node:child_process';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
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
  /**
   * p99 of the load generator's own event-loop delay during the run: it shares the machine and this process, and a
   * request whose answer it reads late is measured late by as much.
   */
  generatorDelayP99Ms: number;
}

export interface LoadOptions {
  target: string;
  url: string;
  sessionKeys: readonly string[];
  seconds: number;
  pace?: number;
}

/**
 * `sessions` connections for `seconds` against one URL (autocannon; loopback only, bounded by time). Each
 * connection is one session: it sends the session key of its own index, as that many signed-in browsers would.
 * Without `pace` each sends its next request as soon as the last is answered: the most the server answers, but then
 * latency only tells how long the queue is (Little's law: sessions ÷ requests per second). With `pace` each sends
 * that many requests a second, as a browser polling and clicking does: the latency a seller sees at that load.
 */
export async function loadRun(options: LoadOptions): Promise<LoadFigures> {
  const generatorDelay = monitorEventLoopDelay({ resolution: 10 });
  generatorDelay.enable();
  try {
    const figures =
      options.pace === undefined ? await closedLoopRun(options) : await pacedRun({ ...options, pace: options.pace });
    return { ...figures, generatorDelayP99Ms: generatorDelay.percentile(99) / 1e6 };
  } finally {
    generatorDelay.disable();
  }
}

async function closedLoopRun(options: LoadOptions): Promise<Omit<LoadFigures, 'generatorDelayP99Ms'>> {
  let next = 0;
  const result = await autocannon({
    url: options.url,
    connections: options.sessionKeys.length,
    duration: options.seconds,
    setupClient: (client) => signIn(client, options.sessionKeys[next++ % options.sessionKeys.length]!),
  });
  return {
    target: options.target,
    sessions: options.sessionKeys.length,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    status5xx: result['5xx'],
  };
}

/**
 * Every session its own autocannon run of one connection at `pace` requests a second, started at a random moment
 * within the first period: browsers poll from whenever their page was opened, not in step. One run of N paced
 * connections would not do: autocannon starts every connection's once-a-second timer in the same loop, so all N
 * requests leave in the same millisecond and the latency measured is how long the server takes to drain that
 * burst (at 200 sessions and ~630 answers/s: p50 ≈ 0.16 s, p99 ≈ 0.32 s, whatever else the server does).
 * Latencies are gathered from every run's answers (2xx, as autocannon's own figures), with no correction for
 * coordinated omission: a session waits for its answer before its next request, as a browser's poll does.
 */
async function pacedRun(options: LoadOptions & { pace: number }): Promise<Omit<LoadFigures, 'generatorDelayP99Ms'>> {
  const latencies: number[] = [];
  let answers = 0;
  const periodMs = 1000 / options.pace;
  const results = await Promise.all(
    options.sessionKeys.map(async (key) => {
      await delay(Math.random() * periodMs);
      return new Promise<autocannon.Result>((resolve, reject) => {
        const instance = autocannon(
          {
            url: options.url,
            connections: 1,
            connectionRate: options.pace,
            duration: options.seconds,
            setupClient: (client) => signIn(client, key),
          },
          (error: unknown, result) => (error ? reject(error) : resolve(result)),
        );
        instance.on('response', (_client, statusCode, _bytes, responseTime) => {
          answers++;
          if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
        });
      });
    }),
  );
  latencies.sort((a, b) => a - b);
  const percentile = (share: number) => latencies[Math.floor(share * (latencies.length - 1))] ?? 0;
  const sum = (count: (result: autocannon.Result) => number) =>
    results.reduce((total, result) => total + count(result), 0);
  return {
    target: options.target,
    sessions: options.sessionKeys.length,
    pace: options.pace,
    requestsPerSecond: answers / options.seconds,
    p50Ms: percentile(0.5),
    p99Ms: percentile(0.99),
    errors: sum((result) => result.errors + result.timeouts),
    non2xx: sum((result) => result.non2xx),
    status5xx: sum((result) => result['5xx']),
  };
}

/** The headers of one signed-in browser: the gateway takes the session key from either. */
function signIn(client: autocannon.Client, key: string): void {
  client.setHeaders({ 'x-session-key': key, cookie: `session_key=${key}` });
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
