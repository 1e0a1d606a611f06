import mongoose, { type Connection } from 'mongoose';
import type { Logger } from 'pino';

export interface MongoOptions {
  url: string;
  /** The service's own database (in embedded mode every service shares one server, each with its own database). */
  dbName?: string;
  logger: Logger;
  /** How long to wait for a reachable server before an operation fails (ms). */
  serverSelectionTimeoutMs?: number;
  maxPoolSize?: number;
}

export interface MongoHandle {
  connection: Connection;
  /** Readiness check: a `ping` round trip. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** MongoDB's duplicate key error (11000): a unique key already taken, the answer idempotent writes rely on. */
export function isDuplicateKeyError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000;
}

/** The URL without its password, safe for logs and error messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}

/**
 * Opens a dedicated mongoose connection (never the global mongoose one, so composed services cannot share state)
 * and waits until it is usable. Fails within serverSelectionTimeoutMs when no server answers.
 */
export async function connectMongo(options: MongoOptions): Promise<MongoHandle> {
  const where = redactUrl(options.url);
  const log = options.logger.child({ component: 'mongo', db: options.dbName });
  const connection = mongoose.createConnection(options.url, {
    dbName: options.dbName,
    serverSelectionTimeoutMS: options.serverSelectionTimeoutMs ?? 10_000,
    connectTimeoutMS: 10_000,
    socketTimeoutMS: 60_000,
    maxPoolSize: options.maxPoolSize ?? 10,
    // Fail fast instead of queueing operations while disconnected.
    bufferCommands: false,
  });
  connection.on('disconnected', () => log.warn('mongo disconnected'));
  connection.on('reconnected', () => log.info('mongo reconnected'));
  connection.on('error', (error: unknown) => log.error({ err: error }, 'mongo connection error'));

  try {
    await connection.asPromise();
  } catch (error) {
    await connection.close().catch(() => undefined);
    throw new Error(
      `Cannot connect to MongoDB at ${where}: ${error instanceof Error ? error.message : String(error)}`,
      {
        cause: error,
      },
    );
  }
  log.info({ url: where }, 'mongo connected');

  return {
    connection,
    async ping() {
      const db = connection.db;
      if (!db) throw new Error('mongo connection is not open');
      await db.command({ ping: 1 });
    },
    async close() {
      await connection.close();
    },
  };
}
