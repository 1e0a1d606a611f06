import { runServiceProcess } from '@productgen/service-kit';
import { distributedAuthConfigSchema } from './config';
import { createAuthService } from './service';

/** Distributed mode: the auth service as its own process, on a real MongoDB and RabbitMQ. */
runServiceProcess({
  role: 'auth',
  configSchema: distributedAuthConfigSchema,
  async start({ config, logger, lifecycle, mongo, bus }) {
    const service = await createAuthService({ config, logger, mongo, bus });
    await service.start();
    lifecycle.onShutdown('auth service', () => service.stop());
    await lifecycle.serve(service.app, config.PORT);
  },
});
