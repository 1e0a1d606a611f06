import {
  createLifecycle,
  createLogger,
  exitOnConfigError,
  initTelemetry,
  loadConfigOrExit,
  metricsConfig,
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
  const gateway = createGateway({ config, logger });
  // Closers run last-registered first: the gateway lets go of its upstream connections before telemetry flushes.
  lifecycle.onShutdown('telemetry', () => telemetry.shutdown());
  lifecycle.onShutdown('gateway', () => gateway.stop());
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
