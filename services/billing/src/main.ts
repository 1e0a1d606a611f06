import { createAmqpBus } from '@productgen/bus';
import { connectMongo, createLifecycle, createLogger, initTelemetry, loadConfigOrExit } from '@productgen/service-kit';
import { distributedBillingConfigSchema } from './config';
import { createBillingService } from './service';

/** Distributed mode: the billing service as its own process, on a real MongoDB and RabbitMQ. */
async function main(): Promise<void> {
  const config = loadConfigOrExit(distributedBillingConfigSchema);
  const serviceName = config.OTEL_SERVICE_NAME ?? 'billing';
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

  const service = await createBillingService({ config, logger, mongo: mongo.connection, bus });
  await service.start();
  lifecycle.onShutdown('billing service', () => service.stop());
  await lifecycle.serve(service.app, config.PORT);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `billing service failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
