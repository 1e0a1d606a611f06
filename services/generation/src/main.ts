import { runServiceProcess } from '@productgen/service-kit';
import { distributedGenerationConfigSchema } from './config';
import { startDistributedGeneration } from './distributed';

/**
 * Distributed mode: the generation API as its own process. It renders too unless GENERATION_WORKER=off, in which
 * case worker.ts processes (any number of them) do.
 */
runServiceProcess({
  role: 'generation',
  configSchema: distributedGenerationConfigSchema,
  async start(context) {
    const service = await startDistributedGeneration(context, 'generation service');
    await context.lifecycle.serve(service.app, context.config.PORT);
  },
});
