import path from 'node:path';
import { createLifecycle, createLogger, initTelemetry, loadConfigOrExit } from '@productgen/service-kit';
import { devstackConfigSchema, launcherDevIdentityProvider } from './config';
import { trackingScriptsOf } from '@productgen/web-host';
import { startEmbeddedInfrastructure } from './infrastructure';
import { startEmbeddedPlatform } from './platform';
import { createWebApp, findMicrofrontendBuilds, publishMicrofrontend } from './web';

/** The repository root, from packages/devstack/dist/main.js. */
const repoRoot = path.resolve(__dirname, '..', '..', '..');

/** `npm start`: the whole platform in one process on embedded infrastructure (DESIGN.md §2). */
async function main(): Promise<void> {
  const config = loadConfigOrExit(devstackConfigSchema);
  const telemetry = initTelemetry({
    serviceName: config.OTEL_SERVICE_NAME ?? 'productgen-embedded',
    otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
  });
  const logger = createLogger({ service: 'devstack', level: config.LOG_LEVEL });
  const lifecycle = createLifecycle({ logger });
  lifecycle.handleSignals();
  // Closers run last-registered first: services, then their buses and databases, then the embedded servers.
  lifecycle.onShutdown('telemetry', () => telemetry.shutdown());

  const dataDir = path.resolve(repoRoot, config.DATA_DIR);
  const infrastructure = await startEmbeddedInfrastructure({ dataDir, logger });
  lifecycle.onShutdown('embedded infrastructure', () => infrastructure.stop());

  const webOrigin = `http://${config.PUBLIC_HOST}:${config.WEB_PORT}`;
  const platform = await startEmbeddedPlatform({ config, infrastructure, lifecycle, webOrigin });

  const webRoot = path.join(dataDir, 'web');
  const builds = await findMicrofrontendBuilds(repoRoot);
  for (const build of builds) await publishMicrofrontend(webRoot, build);
  const web = createWebApp({
    shellDistDir: path.join(repoRoot, 'shell', 'dist'),
    webRoot,
    runtimeConfig: {
      apiPort: Number(new URL(platform.apiUrl).port),
      googleClientId: config.GOOGLE_CLIENT_ID,
      productName: config.PRODUCT_NAME,
      devIdentityProvider: launcherDevIdentityProvider(config),
      trackingScripts: trackingScriptsOf(config),
    },
  });
  await lifecycle.serve(web, config.WEB_PORT, config.HOST);

  process.stdout.write(
    `\n  ${config.PRODUCT_NAME} is running.\n\n` +
      `  Open      ${webOrigin}\n` +
      `  API       ${platform.apiUrl}  (docs: ${platform.apiUrl}/docs)\n` +
      `  Data      ${dataDir}\n` +
      `  Stop      Ctrl-C\n\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `ProductGen failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
