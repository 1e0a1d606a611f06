import http from 'node:http';
import net from 'node:net';
import { createHttpApp, createLifecycle } from '@productgen/service-kit';
import { memoryLogger } from './helpers';

/** A promise with its resolver, to let a test decide when a request handler may finish. */
function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

function get(url: string, agent?: http.Agent): Promise<{ status: number; body: string; connection?: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
      })
      .on('error', reject);
  });
}

function connect(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve();
    });
    socket.on('error', reject);
  });
}

describe('createLifecycle', () => {
  it('finishes an in-flight request, refuses new connections, then runs closers in reverse order', async () => {
    const { logger } = memoryLogger('lifecycle-test');
    const lifecycle = createLifecycle({ logger, drainTimeoutMs: 30_000 });
    const events: string[] = [];
    const slowStarted = deferred();
    const releaseSlow = deferred();

    const app = createHttpApp({ name: 'lifecycle-test', logger });
    app.get('/slow', async (_req, res) => {
      slowStarted.resolve();
      await releaseSlow.promise;
      events.push('slow request answered');
      res.json({ finished: true });
    });
    app.finalize();

    lifecycle.onShutdown('mongo', () => {
      events.push('mongo closed');
    });
    lifecycle.onShutdown('consumers', async () => {
      events.push('consumers stopped');
    });
    const { port, url } = await lifecycle.serve(app, 0, '127.0.0.1');

    // A keep-alive agent: its idle socket must not hold the shutdown up.
    const agent = new http.Agent({ keepAlive: true });
    expect((await get(`${url}/healthz`, agent)).status).toBe(200);

    const slowResponse = get(`${url}/slow`, agent);
    await slowStarted.promise;
    const shutdown = lifecycle.shutdown('test');
    expect(lifecycle.shuttingDown).toBe(true);

    await expect(connect(port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(events).toEqual([]);

    releaseSlow.resolve();
    const answered = await slowResponse;
    expect(answered).toMatchObject({ status: 200, body: '{"finished":true}', connection: 'close' });

    await expect(shutdown).resolves.toBe(true);
    expect(events).toEqual(['slow request answered', 'consumers stopped', 'mongo closed']);
    expect(lifecycle.shutdown('again')).toBe(shutdown);
    expect(() => lifecycle.onShutdown('late', () => undefined)).toThrow(/shutdown has already started/);
    agent.destroy();
  });

  it('destroys connections still open at the drain deadline and reports a failing closer', async () => {
    const { logger, lines } = memoryLogger('lifecycle-test');
    const lifecycle = createLifecycle({ logger, drainTimeoutMs: 200, closerTimeoutMs: 200 });
    const hungStarted = deferred();
    const app = createHttpApp({ name: 'lifecycle-test', logger });
    app.get('/hung', () => {
      hungStarted.resolve();
      // never answers
    });
    app.finalize();
    const closed: string[] = [];
    lifecycle.onShutdown('first', () => {
      closed.push('first');
    });
    lifecycle.onShutdown('broken', () => {
      throw new Error('cannot close');
    });
    lifecycle.onShutdown('stuck', () => new Promise<void>(() => undefined));
    const { url } = await lifecycle.serve(app, 0, '127.0.0.1');

    const hungOutcome = get(`${url}/hung`).then(
      () => 'answered',
      (error: NodeJS.ErrnoException) => error.code,
    );
    await hungStarted.promise;
    const clean = await lifecycle.shutdown('test');

    expect(await hungOutcome).toBe('ECONNRESET');
    expect(clean).toBe(false);
    expect(closed).toEqual(['first']);
    const failures = lines().filter((line) => line.msg === 'failed to close');
    expect(failures.map((line) => line.component)).toEqual(['stuck', 'broken']);
    expect(lines().some((line) => line.msg === 'drain deadline passed; destroying open connections')).toBe(true);
  });

  // SIGUSR2 stands in for SIGTERM/SIGINT: emitting those could reach other listeners in the test process.
  it('handles a signal once (shutdown, then exit 0) and exits at once on a second signal', async () => {
    const { logger } = memoryLogger('lifecycle-test');
    const exitCodes: number[] = [];
    const closing = deferred();
    const lifecycle = createLifecycle({
      logger,
      exit: (code) => {
        exitCodes.push(code);
      },
    });
    lifecycle.onShutdown('slow closer', () => closing.promise);
    const uninstall = lifecycle.handleSignals(['SIGUSR2']);
    try {
      process.emit('SIGUSR2', 'SIGUSR2');
      expect(lifecycle.shuttingDown).toBe(true);
      process.emit('SIGUSR2', 'SIGUSR2');
      expect(exitCodes).toEqual([1]);
      closing.resolve();
      await lifecycle.shutdown();
      await new Promise((resolve) => setImmediate(resolve));
      expect(exitCodes).toEqual([1, 0]);
    } finally {
      uninstall();
    }
    expect(process.listenerCount('SIGUSR2')).toBe(0);
  });
});
