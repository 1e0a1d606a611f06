import { createServer, type Server, type Socket } from 'node:net';
import { runCommand, type ServerInfo } from './commands';
import { CursorManager } from './cursors';
import { CommandError } from './errors';
import { type Logger, silentLogger } from './logger';
import { StorageEngine } from './storage/engine';
import { Persistence } from './storage/persistence';
import { startTtlMonitor } from './storage/ttl';
import { ClientConnection } from './wire/connection';

export interface EmbeddedMongoOptions {
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Directory holding the journal and snapshots; created if missing. */
  dbPath: string;
  logger?: Logger;
  /** How often expired TTL-indexed documents are removed; default 60 s like mongod. */
  ttlMonitorIntervalMs?: number;
  /** The journal is compacted into a snapshot once it exceeds max(this, last snapshot size); default 64 MiB. */
  compactionThresholdBytes?: number;
  /** How often the journal size is checked; default 30 s. */
  compactionCheckIntervalMs?: number;
}

export interface EmbeddedMongo {
  /** Connection string, e.g. mongodb://127.0.0.1:27017 */
  url: string;
  port: number;
  /** Closes every connection, flushes the journal and releases the dbPath. */
  stop(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/** Starts an embedded MongoDB-compatible server that the official drivers (and mongoose) talk to unmodified. */
export async function startEmbeddedMongo(options: EmbeddedMongoOptions): Promise<EmbeddedMongo> {
  const host = options.host ?? '127.0.0.1';
  const logger = options.logger ?? silentLogger;
  const engine = new StorageEngine();
  const persistence = await Persistence.open(engine, {
    dbPath: options.dbPath,
    logger,
    compactionThresholdBytes: options.compactionThresholdBytes,
    compactionCheckIntervalMs: options.compactionCheckIntervalMs,
  });
  const cursors = new CursorManager();
  const stopTtl = startTtlMonitor(engine, options.ttlMonitorIntervalMs ?? 60_000, logger);
  const connections = new Set<ClientConnection>();
  let totalConnections = 0;
  const info: ServerInfo = {
    startedAt: new Date(),
    dbPath: options.dbPath,
    host,
    port: 0,
    currentConnections: () => connections.size,
    totalConnections: () => totalConnections,
  };

  const server = createServer((socket: Socket) => {
    totalConnections++;
    const connection = new ClientConnection(
      socket,
      totalConnections,
      (command, db, conn) =>
        runCommand(
          command,
          {
            db,
            engine,
            cursors,
            sync: () =>
              persistence.sync().catch((error: unknown) => {
                throw new CommandError('InternalError', `journal write failed: ${(error as Error).message}`);
              }),
            connectionId: conn.id,
            remoteAddress: conn.remoteAddress,
            server: info,
          },
          logger,
        ),
      logger,
      (closed) => connections.delete(closed),
    );
    connections.add(connection);
  });
  server.on('error', (error) => logger.error('embedded mongo server error', error));

  let port: number;
  try {
    port = await listen(server, options.port ?? 0, host);
  } catch (error) {
    stopTtl();
    cursors.close();
    await persistence.close();
    throw error;
  }
  info.port = port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const url = `mongodb://${urlHost}:${port}`;
  logger.info(`embedded mongo listening on ${url} (dbPath ${options.dbPath})`);

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const connection of connections) connection.destroy();
      connections.clear();
      await closed;
      stopTtl();
      cursors.close();
      await persistence.close();
      logger.info(`embedded mongo on ${url} stopped`);
    })();
    return stopping;
  };
  return { url, port, stop };
}
