export * from './types';
export { createAmqpBus, type AmqpBus, type AmqpBusOptions } from './amqp';
export {
  createInProcessBroker,
  createInProcessBus,
  type InProcessBroker,
  type InProcessBusOptions,
} from './in-process';
export {
  assertQueueName,
  assertTopic,
  assertTopicPattern,
  deadLetterQueueName,
  retryQueueName,
  topicMatches,
} from './names';
export { DEFAULT_SUBSCRIBE_OPTIONS } from './delivery';
