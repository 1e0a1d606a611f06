import { runServiceProcess } from '@productgen/service-kit';
import { workerConfigSchema } from './config';
import { startDistributedGeneration } from './distributed';

/**
 * Distributed mode: a render worker. Run as many as wanted; they compete for the generation.render queue and
 * each takes at most WORKER_PREFETCH jobs at once. A killed worker's job goes back to the queue unacknowledged
 * and another worker finishes it (idempotently).
 */
runServiceProcess({
  role: 'generation-worker',
  configSchema: workerConfigSchema,
  async start(context) {
    const config = { ...context.config, GENERATION_WORKER: 'in-process' as const };
    await startDistributedGeneration({ ...context, config }, 'render worker');
    context.logger.info({ prefetch: config.WORKER_PREFETCH }, 'render worker running');
  },
});
