import http, { type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '@productgen/service-kit';
import type { Level } from 'pino';

export interface TestServer {
  url: string;
  close(): Promise<void>;
}

/** Serves a request listener on a free loopback port. */
export async function listen(app: RequestListener): Promise<TestServer> {
  const server = http.createServer(app);
  const socketsClosed: Promise<void>[] = [];
  server.on('connection', (socket) => socketsClosed.push(new Promise((resolve) => socket.once('close', resolve))));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await Promise.all(socketsClosed);
      // Responses emit 'close' (and get logged) on the tick after their socket closes.
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

/** A logger whose JSON lines are kept in memory for assertions. */
export function memoryLogger(
  service = 'test',
  level: Level = 'debug',
): { logger: Logger; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString('utf8'));
      callback();
    },
  });
  const logger = createLogger({ service, level, destination });
  return {
    logger,
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
