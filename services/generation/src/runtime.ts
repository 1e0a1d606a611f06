import { createAmqpBus, type MessageBus } from '@productgen/bus';
import {
  connectMongo,
  createLifecycle,
  createLogger,
  createObjectStore,
  initTelemetry,
  type Lifecycle,
  type Logger,
  type ObjectStore,
} from '@productgen/service-kit';
import type { Connection } from 'mongoose';
import type { z } from 'zod';
import type { distributedGenerationConfigSchema } from './config';

export type DistributedConfig = z.output<typeof distributedGenerationConfigSchema>;

export interface ProcessResources {
  logger: Logger;
  lifecycle: Lifecycle;
  mongo: Connection;
  bus: MessageBus;
  objectStore: ObjectStore;
}

/** What main.ts and worker.ts share: telemetry, logs, signals, database, broker and object store. */
export async function openProcessResources(config: DistributedConfig, role: string): Promise<ProcessResources> {
  const serviceName = config.OTEL_SERVICE_NAME ?? role;
  const telemetry = initTelemetry({ serviceName, otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT });
  const logger = createLogger({ service: serviceName, level: config.LOG_LEVEL });
  const lifecycle = createLifecycle({ logger });
  lifecycle.handleSignals();
  // Closers run last-registered first: consumers, then bus, then database, then the span exporter.
  lifecycle.onShutdown('telemetry', () => telemetry.shutdown());
  const mongo = await connectMongo({ url: config.MONGO_URL, dbName: config.MONGO_DB_NAME, logger });
  lifecycle.onShutdown('mongo', () => mongo.close());
  const bus = await createAmqpBus({ url: config.AMQP_URL, logger, connectionName: serviceName });
  lifecycle.onShutdown('bus', () => bus.close());
  const objectStore = createObjectStore({
    endpoint: config.S3_ENDPOINT,
    accessKey: config.S3_ACCESS_KEY,
    secretKey: config.S3_SECRET_KEY,
    bucket: config.S3_BUCKET,
  });
  return { logger, lifecycle, mongo: mongo.connection, bus, objectStore };
}

export function exitWith(role: string) {
  return (error: unknown): never => {
    process.stderr.write(
      `${role} failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  };
}
