import { createObjectStore, type ServiceProcessContext } from '@productgen/service-kit';
import type { z } from 'zod';
import type { distributedGenerationConfigSchema } from './config';
import { createGenerationService, type GenerationService } from './service';

export type DistributedConfig = z.output<typeof distributedGenerationConfigSchema>;

/** What main.ts and worker.ts share: the service on the process's database, broker and object store. */
export async function startDistributedGeneration(
  { config, logger, lifecycle, mongo, bus }: ServiceProcessContext<DistributedConfig>,
  name: string,
): Promise<GenerationService> {
  const storeOf = (bucket: string) =>
    createObjectStore({
      endpoint: config.S3_ENDPOINT,
      accessKey: config.S3_ACCESS_KEY,
      secretKey: config.S3_SECRET_KEY,
      bucket,
    });
  const service = await createGenerationService({
    config,
    logger,
    mongo,
    bus,
    objectStore: storeOf(config.S3_BUCKET),
    batchPhotos: storeOf(config.BATCH_PHOTOS_BUCKET),
  });
  await service.start();
  lifecycle.onShutdown(name, () => service.stop());
  return service;
}
