import { createAmqpBus } from '@productgen/bus';
import {
  connectMongo,
  createLifecycle,
  createLogger,
  exitOnConfigError,
  initTelemetry,
  loadConfigOrExit,
  metricsConfig,
  MongoHitCounter,
  serveOperations,
} from '@productgen/service-kit';
import { z } from 'zod';
import { gatewayConfigSchema, listenPort } from './config';
import { createGateway } from './service';

/** Distributed-mode entry: the gateway alone in its process. */
async function main(): Promise<void> {
  const config = loadConfigOrExit(gatewayConfigSchema);
  const { METRICS_PORT } = loadConfigOrExit(z.object(metricsConfig));
  const logger = createLogger({ service: 'gateway', level: config.LOG_LEVEL });
  const telemetry = initTelemetry({
    serviceName: config.OTEL_SERVICE_NAME ?? 'gateway',
    otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
  });
  const lifecycle = createLifecycle({ logger });
  // Closers run last-registered first: the gateway lets go of its upstream connections and its subscription, then
  // the bus closes, then telemetry flushes.
  lifecycle.onShutdown('telemetry', () => telemetry.shutdown());
  const bus = config.AMQP_URL
    ? await createAmqpBus({ url: config.AMQP_URL, logger, connectionName: 'gateway' })
    : undefined;
  if (bus) lifecycle.onShutdown('bus', () => bus.close());
  else logger.warn('no AMQP_URL: logouts reach only this replica (session revocations of other replicas are not seen)');
  let rateLimitCounter: MongoHitCounter | undefined;
  if (config.MONGO_URL) {
    const mongo = await connectMongo({ url: config.MONGO_URL, dbName: config.MONGO_DB_NAME, logger });
    lifecycle.onShutdown('mongo', () => mongo.close());
    rateLimitCounter = await MongoHitCounter.open(mongo.connection, config.RATE_LIMIT_WINDOW_MS);
  } else logger.warn('no MONGO_URL: this replica counts the rate limits on its own (N replicas allow N times them)');
  const gateway = createGateway({ config, logger, bus, rateLimitCounter });
  lifecycle.onShutdown('gateway', () => gateway.stop());
  await gateway.start();
  lifecycle.handleSignals();
  await serveOperations(lifecycle, { port: METRICS_PORT, host: config.HOST, logger });
  await lifecycle.serve(gateway.app, listenPort(config), config.HOST);
}

main().catch((error: unknown) => {
  try {
    exitOnConfigError(error);
  } catch {
    process.stderr.write(
      `gateway failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  }
});
