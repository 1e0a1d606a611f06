import path from 'node:path';
import { startEmbeddedMongo } from '@productgen/embedded-mongo';
import { connectMongo, createLogger, type MongoHandle } from '@productgen/service-kit';

/** The driver's database handle, as the services' own connections expose it. */
export type PlatformDb = NonNullable<MongoHandle['connection']['db']>;

/**
 * Reads a stopped platform's data: opens its embedded MongoDB journal (`<DATA_DIR>/mongo`) on a free port, hands
 * the given database to `read`, then releases the data directory again. The platform must have stopped first,
 * because one data directory is owned by one server at a time.
 */
export async function readStoppedPlatformDatabase<T>(
  dataDir: string,
  dbName: string,
  read: (db: PlatformDb) => Promise<T>,
): Promise<T> {
  const mongo = await startEmbeddedMongo({ dbPath: path.join(dataDir, 'mongo') });
  try {
    const handle = await connectMongo({
      url: mongo.url,
      dbName,
      logger: createLogger({ service: 'e2e', level: 'error' }),
    });
    try {
      const db = handle.connection.db;
      if (!db) throw new Error(`the connection to ${dbName} has no database handle`);
      return await read(db);
    } finally {
      await handle.close();
    }
  } finally {
    await mongo.stop();
  }
}
