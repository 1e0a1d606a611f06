// The embedded single-process bus: a broker object shared by every "connection" in the process, with the same
// semantics as the RabbitMQ topology (see README): competing consumers per queue, topic routing, prefetch,
// ack after the handler, retry with backoff, dead-letter queue, and unacked messages back in the queue when a
// connection dies.
import {
  decodeMessage,
  deadLetterHeaders,
  forwardedHeaders,
  handleDelivery,
  InFlightTracker,
  publishTraced,
  readDeadLetter,
  resolveLimit,
  validateSubscription,
  type ResolvedSubscribeOptions,
  type StoredMessage,
} from './delivery';
import { assertQueueName, topicMatches } from './names';
import {
  BusUnavailableError,
  type BusLogger,
  type DeadLetter,
  type MessageBus,
  type MessageHandler,
  type PublishOptions,
  type SubscribeOptions,
  type Subscription,
  type TakeDeadLettersOptions,
} from './types';

const SYSTEM = 'in-process';

interface QueuedMessage extends StoredMessage {
  topic: string;
  /** Times this copy went back to the queue unacked, as RabbitMQ's x-delivery-count counts them. */
  redeliveries: number;
}

/** FIFO with O(1) shift, so queues of tens of thousands of messages stay cheap. */
class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  unshift(item: T): void {
    if (this.head > 0) this.items[--this.head] = item;
    else this.items.unshift(item);
  }

  shift(): T | undefined {
    if (this.head === this.items.length) return undefined;
    const item = this.items[this.head];
    this.head += 1;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}

class BrokerQueue {
  readonly patterns = new Set<string>();
  readonly ready = new Fifo<QueuedMessage>();
  readonly deadLetters = new Fifo<QueuedMessage>();
  private consumers: InProcessConsumer[] = [];
  private nextConsumer = 0;

  constructor(
    readonly name: string,
    readonly maxDeliveries: number,
  ) {}

  addConsumer(consumer: InProcessConsumer): void {
    this.consumers.push(consumer);
    this.dispatch();
  }

  removeConsumer(consumer: InProcessConsumer): void {
    this.consumers = this.consumers.filter((c) => c !== consumer);
  }

  enqueue(message: QueuedMessage): void {
    this.ready.push(message);
    this.dispatch();
  }

  /** An unacked message whose consumer went away goes back to the head of the queue, like a RabbitMQ requeue. */
  requeue(message: QueuedMessage): void {
    this.ready.unshift({ ...message, redeliveries: message.redeliveries + 1 });
  }

  /** Hands ready messages round-robin to consumers that are below their prefetch. */
  dispatch(): void {
    while (this.ready.length > 0) {
      const consumer = this.nextWithCapacity();
      if (!consumer) return;
      consumer.deliver(this.ready.shift() as QueuedMessage);
    }
  }

  private nextWithCapacity(): InProcessConsumer | undefined {
    for (let i = 0; i < this.consumers.length; i += 1) {
      const index = (this.nextConsumer + i) % this.consumers.length;
      const consumer = this.consumers[index];
      if (consumer?.hasCapacity()) {
        this.nextConsumer = index + 1;
        return consumer;
      }
    }
    return undefined;
  }
}

/** The shared "server": queues, bindings, dead letters and retry timers. One per process. */
export class InProcessBroker {
  private readonly queues = new Map<string, BrokerQueue>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  get isClosed(): boolean {
    return this.closed;
  }

  /** Declares the queue if missing and adds bindings (bindings accumulate, as on RabbitMQ). */
  declareQueue(name: string, patterns: string[], maxDeliveries: number): BrokerQueue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new BrokerQueue(name, maxDeliveries);
      this.queues.set(name, queue);
    } else if (queue.maxDeliveries !== maxDeliveries) {
      // Mirrors RabbitMQ refusing to redeclare a queue with a different x-delivery-limit.
      throw new Error(
        `queue "${name}" already exists with maxDeliveries ${queue.maxDeliveries}; every subscriber of a queue must use the same maxDeliveries (got ${maxDeliveries})`,
      );
    }
    for (const pattern of patterns) queue.patterns.add(pattern);
    return queue;
  }

  queue(name: string): BrokerQueue | undefined {
    return this.queues.get(name);
  }

  /** Copies the message into every queue bound to a matching pattern; unroutable messages are dropped, as on RabbitMQ. */
  route(topic: string, message: StoredMessage): void {
    this.assertOpen();
    for (const queue of this.queues.values()) {
      if ([...queue.patterns].some((pattern) => topicMatches(pattern, topic))) {
        queue.enqueue({ ...message, topic, redeliveries: 0 });
      }
    }
  }

  /** Broker-side delay (the RabbitMQ delay queue): survives the consumer connection that scheduled it. */
  delay(ms: number, action: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.closed) action();
    }, ms);
    // A pending retry alone should not keep the process alive.
    timer.unref();
    this.timers.add(timer);
  }

  /** Stops the broker: pending retries are dropped along with every queued message. */
  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.queues.clear();
  }

  assertOpen(): void {
    if (this.closed) throw new BusUnavailableError('the in-process broker is closed');
  }
}

export function createInProcessBroker(): InProcessBroker {
  return new InProcessBroker();
}

class InProcessConsumer implements Subscription {
  /** Messages delivered and not yet settled; what goes back to the queue if the connection dies. */
  private readonly unacked = new Set<QueuedMessage>();
  private readonly inFlight = new InFlightTracker();
  private accepting = true;
  private closing: Promise<void> | null = null;

  constructor(
    private readonly broker: InProcessBroker,
    private readonly brokerQueue: BrokerQueue,
    private readonly handler: MessageHandler<unknown>,
    private readonly options: ResolvedSubscribeOptions,
    private readonly logger: BusLogger,
    private readonly onClosed: (consumer: InProcessConsumer) => void,
  ) {}

  get queue(): string {
    return this.brokerQueue.name;
  }

  hasCapacity(): boolean {
    return this.accepting && this.unacked.size < this.options.prefetch;
  }

  deliver(message: QueuedMessage): void {
    this.unacked.add(message);
    // Tracked from the moment of delivery, so close() also waits for handlers that have not started yet.
    void this.inFlight.track(() => this.process(message));
  }

  private async process(queued: QueuedMessage): Promise<void> {
    // Never run a handler inside the publisher's call stack: a handler that publishes must not recurse.
    await new Promise((resolve) => setImmediate(resolve));
    // Aborted before the handler started: the message is already back in the queue.
    if (!this.unacked.has(queued)) return;
    const decoded = decodeMessage(queued.messageId, queued.body, queued.headers, queued.redeliveries, queued.topic);
    const outcome = await handleDelivery(SYSTEM, this.queue, decoded, this.handler, this.options, this.logger);
    // Aborted meanwhile: the message is already back in the queue, this outcome no longer counts.
    if (!this.unacked.delete(queued)) return;
    if (outcome.kind === 'retry') {
      const retry = copyOf(queued, forwardedHeaders(decoded.message));
      this.broker.delay(outcome.delayMs, () => this.broker.queue(this.queue)?.enqueue(retry));
    } else if (outcome.kind === 'dead-letter') {
      this.brokerQueue.deadLetters.push(copyOf(queued, deadLetterHeaders(decoded.message, outcome.reason)));
    }
    this.brokerQueue.dispatch();
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.accepting = false;
      this.brokerQueue.removeConsumer(this);
      await this.inFlight.idle();
      this.onClosed(this);
    })();
    return this.closing;
  }

  /** The connection died: forget in-flight handlers and give their messages back to the queue. */
  abort(): void {
    this.accepting = false;
    this.brokerQueue.removeConsumer(this);
    for (const message of this.unacked) this.brokerQueue.requeue(message);
    this.unacked.clear();
    this.brokerQueue.dispatch();
    this.onClosed(this);
  }
}

/** The copy that goes to a retry or the dead-letter queue: same id and bytes, new bookkeeping headers. */
function copyOf(queued: QueuedMessage, headers: Record<string, string | number>): QueuedMessage {
  return { messageId: queued.messageId, body: queued.body, headers, topic: queued.topic, redeliveries: 0 };
}

export interface InProcessBusOptions {
  logger: BusLogger;
}

class InProcessBus implements MessageBus {
  private readonly consumers = new Set<InProcessConsumer>();
  private state: 'open' | 'closing' | 'closed' | 'aborted' = 'open';
  private closing: Promise<void> | null = null;

  constructor(
    private readonly broker: InProcessBroker,
    private readonly logger: BusLogger,
  ) {}

  async publish<T>(topic: string, payload: T, options?: PublishOptions): Promise<void> {
    // Handlers still finishing during a graceful close may publish their follow-up messages.
    if (this.state !== 'open' && this.state !== 'closing') throw new BusUnavailableError(`the bus is ${this.state}`);
    await publishTraced(SYSTEM, topic, payload, options, async (message) => this.broker.route(topic, message));
  }

  async subscribe<T>(
    queue: string,
    topics: string[],
    handler: MessageHandler<T>,
    options?: SubscribeOptions,
  ): Promise<Subscription> {
    this.assertOpen();
    this.broker.assertOpen();
    const { patterns, resolved } = validateSubscription(queue, topics, handler, options);
    const brokerQueue = this.broker.declareQueue(queue, patterns, resolved.maxDeliveries);
    const consumer = new InProcessConsumer(
      this.broker,
      brokerQueue,
      handler as MessageHandler<unknown>,
      resolved,
      this.logger,
      (closed) => this.consumers.delete(closed),
    );
    this.consumers.add(consumer);
    brokerQueue.addConsumer(consumer);
    return consumer;
  }

  async takeDeadLetters<T = unknown>(queue: string, options?: TakeDeadLettersOptions): Promise<DeadLetter<T>[]> {
    this.assertOpen();
    assertQueueName(queue);
    const limit = resolveLimit(options);
    const deadLetters = this.broker.queue(queue)?.deadLetters;
    const taken: DeadLetter<T>[] = [];
    while (deadLetters && deadLetters.length > 0 && taken.length < limit) {
      const stored = deadLetters.shift() as QueuedMessage;
      const decoded = decodeMessage(stored.messageId, stored.body, stored.headers, 0, stored.topic);
      taken.push(readDeadLetter(queue, decoded, stored.headers) as DeadLetter<T>);
    }
    return taken;
  }

  async ping(): Promise<void> {
    this.assertOpen();
    this.broker.assertOpen();
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.state === 'aborted') return;
      this.state = 'closing';
      await Promise.all([...this.consumers].map((consumer) => consumer.close()));
      this.state = 'closed';
    })();
    return this.closing;
  }

  async abort(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'aborted';
    for (const consumer of [...this.consumers]) consumer.abort();
  }

  private assertOpen(): void {
    if (this.state !== 'open') throw new BusUnavailableError(`the bus is ${this.state}`);
  }
}

/** A "connection" to the shared in-process broker, with the same interface and semantics as the AMQP bus. */
export function createInProcessBus(broker: InProcessBroker, options: InProcessBusOptions): MessageBus {
  return new InProcessBus(broker, options.logger);
}
