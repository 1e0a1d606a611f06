import { loadConfigOrExit } from '@productgen/service-kit';
import { workerConfigSchema } from './config';
import { closeInferenceThread } from './models/runtime';
import { exitWith, openProcessResources } from './runtime';
import { createGenerationService } from './service';

/**
 * Distributed mode: a render worker. Run as many as wanted; they compete for the generation.render queue and
 * each takes at most WORKER_PREFETCH jobs at once. A killed worker's job goes back to the queue unacknowledged
 * and another worker finishes it (idempotently).
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit(workerConfigSchema);
  const { logger, lifecycle, mongo, bus, objectStore } = await openProcessResources(config, 'generation-worker');
  lifecycle.onShutdown('inference thread', () => closeInferenceThread());
  const service = await createGenerationService({
    config: { ...config, GENERATION_WORKER: 'in-process' },
    logger,
    mongo,
    bus,
    objectStore,
    billing: { baseUrl: config.BILLING_URL },
    auth: { baseUrl: config.AUTH_URL },
  });
  await service.start();
  lifecycle.onShutdown('render worker', () => service.stop());
  logger.info({ prefetch: config.WORKER_PREFETCH }, 'render worker running');
}

main().catch(exitWith('render worker'));
