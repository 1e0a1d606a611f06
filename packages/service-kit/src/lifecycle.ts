import http, { type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';

export type Closer = () => Promise<void> | void;

export interface LifecycleOptions {
  logger: Logger;
  /** How long in-flight HTTP requests may take to finish once shutdown starts; then their sockets are destroyed. */
  drainTimeoutMs?: number;
  /** Time limit for each registered closer. */
  closerTimeoutMs?: number;
  /** Called after a signal-triggered shutdown (and on a second signal). Defaults to process.exit. */
  exit?: (code: number) => void;
}

export interface RunningServer {
  server: http.Server;
  port: number;
  /** http://host:port of the listening socket. */
  url: string;
}

export interface Lifecycle {
  /** Registers a closer; closers run after the HTTP servers have drained, last registered first. */
  onShutdown(name: string, close: Closer): void;
  /** Starts an HTTP server for `app` (port 0 picks a free one) that drains gracefully on shutdown. */
  serve(app: RequestListener, port: number, host?: string): Promise<RunningServer>;
  /** Drains servers, then runs closers in reverse order. Idempotent; resolves true when everything closed cleanly. */
  shutdown(reason?: string): Promise<boolean>;
  /** Opt-in: the first SIGINT/SIGTERM shuts down then exits; a second one exits at once. Returns an uninstaller. */
  handleSignals(signals?: NodeJS.Signals[]): () => void;
  readonly shuttingDown: boolean;
}

async function withTimeout<T>(work: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} did not finish within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** An HTTP server that, once asked to drain, finishes in-flight requests and lets no keep-alive socket linger. */
class DrainableServer {
  private readonly inFlight = new Set<ServerResponse>();
  private draining = false;

  /** Our listener goes first so it sees each response before the app can send its headers. */
  constructor(
    readonly server: http.Server,
    app: RequestListener,
  ) {
    server.on('request', (_req, res: ServerResponse) => {
      if (this.draining && !res.headersSent) res.setHeader('Connection', 'close');
      this.inFlight.add(res);
      res.once('close', () => {
        this.inFlight.delete(res);
        // Its socket is idle now: close it rather than wait for the keep-alive timeout.
        if (this.draining) setImmediate(() => server.closeIdleConnections());
      });
    });
    server.on('request', app);
  }

  drain(deadlineMs: number, logger: Logger): Promise<void> {
    this.draining = true;
    for (const res of this.inFlight) {
      if (!res.headersSent) res.setHeader('Connection', 'close');
    }
    return new Promise((resolve) => {
      const deadline = setTimeout(() => {
        logger.warn({ inFlight: this.inFlight.size, deadlineMs }, 'drain deadline passed; destroying open connections');
        this.server.closeAllConnections();
      }, deadlineMs);
      // close() stops accepting at once and calls back when the last connection has gone.
      this.server.close(() => {
        clearTimeout(deadline);
        resolve();
      });
      this.server.closeIdleConnections();
    });
  }
}

export function createLifecycle(options: LifecycleOptions): Lifecycle {
  const { logger } = options;
  const drainTimeoutMs = options.drainTimeoutMs ?? 10_000;
  const closerTimeoutMs = options.closerTimeoutMs ?? 10_000;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const closers: { name: string; close: Closer }[] = [];
  const servers: DrainableServer[] = [];
  let shutdownPromise: Promise<boolean> | undefined;

  async function runShutdown(reason: string): Promise<boolean> {
    logger.info({ reason }, 'shutting down');
    await Promise.all(servers.map((server) => server.drain(drainTimeoutMs, logger)));
    let clean = true;
    for (const { name, close } of [...closers].reverse()) {
      try {
        await withTimeout(Promise.resolve().then(close), closerTimeoutMs, `closing ${name}`);
        logger.info({ component: name }, 'closed');
      } catch (error) {
        clean = false;
        logger.error({ component: name, err: error }, 'failed to close');
      }
    }
    logger.info({ clean }, 'shutdown complete');
    return clean;
  }

  const lifecycle: Lifecycle = {
    get shuttingDown() {
      return shutdownPromise !== undefined;
    },

    onShutdown(name, close) {
      if (shutdownPromise) throw new Error(`cannot register "${name}": shutdown has already started`);
      closers.push({ name, close });
    },

    async serve(app, port, host = '0.0.0.0') {
      if (shutdownPromise) throw new Error('cannot serve: shutdown has already started');
      const server = http.createServer();
      const drainable = new DrainableServer(server, app);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      servers.push(drainable);
      const address = server.address() as AddressInfo;
      const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      logger.info({ port: address.port, host: address.address }, 'listening');
      return { server, port: address.port, url: `http://${urlHost}:${address.port}` };
    },

    shutdown(reason = 'requested') {
      shutdownPromise ??= runShutdown(reason);
      return shutdownPromise;
    },

    handleSignals(signals = ['SIGINT', 'SIGTERM']) {
      const onSignal = (signal: NodeJS.Signals) => {
        if (shutdownPromise) {
          logger.warn({ signal }, 'second signal: exiting immediately');
          exit(1);
          return;
        }
        void lifecycle.shutdown(signal).then((clean) => exit(clean ? 0 : 1));
      };
      for (const signal of signals) process.on(signal, onSignal);
      return () => {
        for (const signal of signals) process.off(signal, onSignal);
      };
    },
  };
  return lifecycle;
}
