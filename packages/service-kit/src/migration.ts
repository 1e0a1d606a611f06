import type { Connection, Model } from 'mongoose';
import { z } from 'zod';
import { baseConfig, envFields, loadConfigOrExit, mongoConfig } from './config';
import { createLogger } from './logger';
import { connectMongo } from './mongo';

/**
 * The one migration step of distributed mode (a Kubernetes Job and a one-shot compose service before the service
 * starts): creates the service's collections and the indexes its schemas declare, then exits 0. Idempotent, and it
 * only adds: an index the schema no longer declares is left for an operator, since the previous version may still
 * run during a rolling update. Reads MONGO_URL and MONGO_DB_NAME (default: the service's database) only.
 */
export function runMigration(options: {
  role: string;
  defaultDbName: string;
  /** The service's own model factory (its data/models.ts), so the migration and the service share one schema. */
  createModels(connection: Connection): Promise<object>;
}): void {
  const main = async () => {
    const config = loadConfigOrExit(
      z.object({
        ...baseConfig,
        ...mongoConfig,
        MONGO_DB_NAME: envFields.nonEmpty().default(options.defaultDbName),
      }),
    );
    const logger = createLogger({ service: `${options.role}-migrate`, level: config.LOG_LEVEL });
    const mongo = await connectMongo({ url: config.MONGO_URL, dbName: config.MONGO_DB_NAME, logger });
    try {
      const models = Object.values(await options.createModels(mongo.connection)) as Model<unknown>[];
      for (const model of models) {
        await model.createCollection();
        await model.createIndexes();
        const indexes = (await model.listIndexes()).map((index: { name: string }) => index.name);
        logger.info({ collection: model.collection.collectionName, indexes }, 'collection migrated');
      }
      logger.info({ db: config.MONGO_DB_NAME, collections: models.length }, 'migration done');
    } finally {
      await mongo.close();
    }
  };
  main().catch((error: unknown) => {
    process.stderr.write(
      `${options.role} migration failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
}
