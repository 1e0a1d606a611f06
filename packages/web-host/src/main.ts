import { createLifecycle, createLogger, initTelemetry, loadConfigOrExit } from '@productgen/service-kit';
import { microfrontendHostConfigSchema, shellHostConfigSchema } from './config';
import { createMicrofrontendHost, createShellHost } from './app';

/** Distributed mode: the shell host (WEB_HOST_ROLE=shell) or one microfrontend's host (microfrontend), alone. */
async function main(): Promise<void> {
  const isShell = process.env.WEB_HOST_ROLE === 'shell';
  const config = isShell ? loadConfigOrExit(shellHostConfigSchema) : loadConfigOrExit(microfrontendHostConfigSchema);
  const role = config.WEB_HOST_ROLE === 'shell' ? 'shell-host' : `mfe-${config.MFE_NAME}-host`;
  const telemetry = initTelemetry({
    serviceName: config.OTEL_SERVICE_NAME ?? role,
    otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
  });
  const logger = createLogger({ service: role, level: config.LOG_LEVEL });
  const lifecycle = createLifecycle({ logger });
  lifecycle.handleSignals();
  lifecycle.onShutdown('telemetry', () => telemetry.shutdown());
  const app =
    config.WEB_HOST_ROLE === 'shell' ? createShellHost(config, logger) : createMicrofrontendHost(config, logger);
  await lifecycle.serve(app, config.PORT, config.HOST);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `web host failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
