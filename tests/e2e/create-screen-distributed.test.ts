import { DISTRIBUTED_START_TIMEOUT_MS } from '../support/distributed-platform';
import { runSuitesAgainst } from '../support/platform-kind';
import { withRabbitMq } from '../support/rabbitmq';

// The same suite as create-screen.test.ts, run against `npm run start:distributed`: every service, render worker and web
// host its own process, started with the compose file's commands and environment, on real RabbitMQ and the embedded
// MongoDB and S3 processes. The platform is chosen before the suite body is loaded, hence require, not import.
withRabbitMq('start:distributed', () => {
  runSuitesAgainst('npm run start:distributed');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('./create-screen.test');
  // After the suite's own jest.setTimeout: starting every process takes minutes on a loaded machine.
  jest.setTimeout(DISTRIBUTED_START_TIMEOUT_MS);
});
