import { createObjectStore, runServiceProcess } from '@productgen/service-kit';
import { distributedBulkConfigSchema } from './config';
import { createBulkService } from './service';

/** Distributed mode: the bulk service as its own process. */
runServiceProcess({
  role: 'bulk',
  configSchema: distributedBulkConfigSchema,
  async start({ config, logger, lifecycle, mongo, bus }) {
    const service = await createBulkService({
      config,
      logger,
      mongo,
      bus,
      objectStore: createObjectStore({
        endpoint: config.S3_ENDPOINT,
        accessKey: config.S3_ACCESS_KEY,
        secretKey: config.S3_SECRET_KEY,
        bucket: config.S3_BUCKET,
      }),
    });
    await service.start();
    lifecycle.onShutdown('bulk service', () => service.stop());
    await lifecycle.serve(service.app, config.PORT);
  },
});
