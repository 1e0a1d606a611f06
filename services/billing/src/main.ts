import { runServiceProcess } from '@productgen/service-kit';
import { distributedBillingConfigSchema } from './config';
import { createBillingService } from './service';

/** Distributed mode: the billing service as its own process, on a real MongoDB and RabbitMQ. */
runServiceProcess({
  role: 'billing',
  configSchema: distributedBillingConfigSchema,
  async start({ config, logger, lifecycle, mongo, bus }) {
    const service = await createBillingService({ config, logger, mongo, bus });
    await service.start();
    lifecycle.onShutdown('billing service', () => service.stop());
    await lifecycle.serve(service.app, config.PORT);
  },
});
