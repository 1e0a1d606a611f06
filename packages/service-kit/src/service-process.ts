import { createAmqpBus, type MessageBus } from '@productgen/bus';
import type { Connection } from 'mongoose';
import { z } from 'zod';
import { loadConfigOrExit, type baseConfig } from './config';
import { createLifecycle, type Lifecycle } from './lifecycle';
import { createLogger, type Logger } from './logger';
import { connectMongo } from './mongo';
import { initTelemetry } from './telemetry';
import { instrumentBus, metricsConfig, serveOperations } from './metrics';

/** What every distributed-mode process reads: its database, its broker, logs and tracing. */
export interface ServiceProcessConfig {
  LOG_LEVEL: z.output<(typeof baseConfig)['LOG_LEVEL']>;
  MONGO_URL: string;
  MONGO_DB_NAME: string;
  AMQP_URL: string;
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  OTEL_SERVICE_NAME?: string;
}

export interface ServiceProcessContext<Config> {
  config: Config;
  logger: Logger;
  /** Register closers here; they run last-registered first, after the HTTP servers have drained. */
  lifecycle: Lifecycle;
  mongo: Connection;
  bus: MessageBus;
}

/**
 * The one main() of distributed mode: validates the environment (a bad variable ends the process with its name),
 * starts tracing, logs, signal handling, the service's MongoDB connection and its RabbitMQ bus (handlers counted and
 * timed) and /metrics, /healthz, /readyz on METRICS_PORT, then hands them to `start`. Shutdown order: what `start` registered, then the bus, the database and the span exporter.
 */
export function runServiceProcess<Shape extends z.ZodRawShape>(options: {
  role: string;
  configSchema: z.ZodObject<Shape>;
  start(context: ServiceProcessContext<z.output<z.ZodObject<Shape>> & ServiceProcessConfig>): Promise<void>;
}): void {
  const main = async () => {
    const config = loadConfigOrExit(options.configSchema) as z.output<z.ZodObject<Shape>> & ServiceProcessConfig;
    const { METRICS_PORT } = loadConfigOrExit(z.object(metricsConfig));
    const serviceName = config.OTEL_SERVICE_NAME ?? options.role;
    const telemetry = initTelemetry({ serviceName, otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT });
    const logger = createLogger({ service: serviceName, level: config.LOG_LEVEL });
    const lifecycle = createLifecycle({ logger });
    lifecycle.handleSignals();
    lifecycle.onShutdown('telemetry', () => telemetry.shutdown());
    const mongo = await connectMongo({ url: config.MONGO_URL, dbName: config.MONGO_DB_NAME, logger });
    lifecycle.onShutdown('mongo', () => mongo.close());
    const amqpBus = await createAmqpBus({ url: config.AMQP_URL, logger, connectionName: serviceName });
    lifecycle.onShutdown('bus', () => amqpBus.close());
    const bus = instrumentBus(amqpBus);
    await serveOperations(lifecycle, {
      port: METRICS_PORT,
      logger,
      readiness: { mongo: () => mongo.ping(), bus: () => amqpBus.ping() },
    });
    await options.start({ config, logger, lifecycle, mongo: mongo.connection, bus });
  };
  main().catch((error: unknown) => {
    process.stderr.write(
      `${options.role} failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
}
