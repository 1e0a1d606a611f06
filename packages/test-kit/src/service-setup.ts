import type { Connection } from 'mongoose';
import { createInProcessBroker, createInProcessBus, type InProcessBroker, type MessageBus } from '@productgen/bus';
import type { Logger } from '@productgen/service-kit';
import type { MongoFixture } from './mongo-fixture';
import { TestClock } from './test-clock';

/** What a real service under test runs on: its database, its bus, a clock the test moves. */
export interface ServiceSetup {
  connection: Connection;
  bus: MessageBus;
  broker: InProcessBroker;
  clock: TestClock;
  /** Closes the bus when it was made here (a bus passed in belongs to the caller), then the broker. */
  closeBus(): Promise<void>;
}

/** A real service a test started, as test-kit's `startTestService` of each service gives it. */
export interface RunningTestService extends Omit<ServiceSetup, 'closeBus'> {
  close(): Promise<void>;
}

/** What a test may set when it starts a real service: its environment (over the test defaults), a database. */
export interface ServiceOptions {
  env?: Record<string, string>;
  connection?: Connection;
}

/**
 * A database of the fixture's server (unless a connection is given) and an in-process bus (unless one is given,
 * e.g. RabbitMQ), as the embedded launcher gives a service.
 */
export async function serviceSetup(
  mongo: MongoFixture,
  given: { connection?: Connection; bus?: MessageBus },
  logger: Logger,
): Promise<ServiceSetup> {
  const connection = given.connection ?? (await mongo.connect());
  const broker = createInProcessBroker();
  const bus = given.bus ?? createInProcessBus(broker, { logger });
  return {
    connection,
    bus,
    broker,
    clock: new TestClock(),
    async closeBus() {
      if (given.bus === undefined) await bus.close();
      await broker.close();
    },
  };
}
