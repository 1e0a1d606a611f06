import { loadConfigOrExit } from '@productgen/service-kit';
import { distributedGenerationConfigSchema } from './config';
import { closeInferenceThread } from './models/runtime';
import { exitWith, openProcessResources } from './runtime';
import { createGenerationService } from './service';

/**
 * Distributed mode: the generation API as its own process. It renders too unless GENERATION_WORKER=off, in which
 * case worker.ts processes (any number of them) do.
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit(distributedGenerationConfigSchema);
  const { logger, lifecycle, mongo, bus, objectStore } = await openProcessResources(config, 'generation');
  lifecycle.onShutdown('inference thread', () => closeInferenceThread());
  const service = await createGenerationService({
    config,
    logger,
    mongo,
    bus,
    objectStore,
    billing: { baseUrl: config.BILLING_URL },
    auth: { baseUrl: config.AUTH_URL },
  });
  await service.start();
  lifecycle.onShutdown('generation service', () => service.stop());
  await lifecycle.serve(service.app, config.PORT);
}

main().catch(exitWith('generation service'));
