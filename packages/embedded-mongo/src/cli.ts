/**
 * Runs the embedded MongoDB-compatible server in the foreground:
 *   node dist/cli.js --port 27018 --dbpath /tmp/data [--host 127.0.0.1]
 * Prints the connection URL and stops cleanly (journal flushed) on SIGINT/SIGTERM.
 */
import { parseArgs } from 'node:util';
import type { Logger } from './logger';
import { startEmbeddedMongo } from './server';

const USAGE = 'usage: embedded-mongo --dbpath <dir> [--port <port>] [--host <host>] [--quiet]';

const consoleLogger: Logger = {
  info: (message, ...args) => console.log(message, ...args),
  warn: (message, ...args) => console.warn(message, ...args),
  error: (message, ...args) => console.error(message, ...args),
};

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '27017' },
      dbpath: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port);
  if (!values.dbpath || !Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  const server = await startEmbeddedMongo({
    port,
    host: values.host,
    dbPath: values.dbpath,
    logger: values.quiet ? undefined : consoleLogger,
  });
  console.log(server.url);
  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.error(`${signal} received, stopping`);
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
