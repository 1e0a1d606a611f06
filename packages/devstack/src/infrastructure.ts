import path from 'node:path';
import { createInProcessBroker, type InProcessBroker } from '@productgen/bus';
import { startEmbeddedMongo } from '@productgen/embedded-mongo';
import { startEmbeddedS3 } from '@productgen/embedded-s3';
import type { Logger } from '@productgen/service-kit';

export interface EmbeddedInfrastructureOptions {
  /** Root of the persistent data: Mongo under `mongo/`, objects under `s3/`. */
  dataDir: string;
  logger: Logger;
  /** 0 (default) picks free loopback ports; the services get the URLs, so nobody needs fixed ones. */
  mongoPort?: number;
  s3Port?: number;
  /** Buckets created at start. */
  buckets?: string[];
}

/** What a service needs to reach the embedded MongoDB, S3 and message broker. */
export interface EmbeddedInfrastructure {
  mongoUrl: string;
  s3: { endpoint: string; accessKey: string; secretKey: string };
  broker: InProcessBroker;
  /** Stops S3 and Mongo (flushing the journal). Services must be closed before this. */
  stop(): Promise<void>;
}

/**
 * The embedded column of DESIGN.md §2: an embedded MongoDB-compatible server and an embedded S3 endpoint on
 * loopback, plus the in-process broker. Used by `npm start` and by the integration and end-to-end tests.
 */
export async function startEmbeddedInfrastructure(
  options: EmbeddedInfrastructureOptions,
): Promise<EmbeddedInfrastructure> {
  const { logger } = options;
  const dataDir = path.resolve(options.dataDir);
  const mongo = await startEmbeddedMongo({
    dbPath: path.join(dataDir, 'mongo'),
    port: options.mongoPort ?? 0,
    logger: logger.child({ component: 'embedded-mongo' }),
  });
  try {
    const s3 = await startEmbeddedS3({
      dataDir: path.join(dataDir, 's3'),
      port: options.s3Port ?? 0,
      buckets: options.buckets,
      logger: logger.child({ component: 'embedded-s3' }),
    });
    logger.info({ mongo: mongo.url, s3: s3.endpoint, dataDir }, 'embedded infrastructure started');
    return {
      mongoUrl: mongo.url,
      s3: { endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: s3.secretKey },
      broker: createInProcessBroker(),
      async stop() {
        await s3.stop();
        await mongo.stop();
      },
    };
  } catch (error) {
    await mongo.stop();
    throw error;
  }
}
