// RabbitMQ implementation (amqplib). Topology and semantics are described in the package README.
import * as amqp from 'amqplib';
import type { ChannelModel, ConfirmChannel, ConsumeMessage, Options } from 'amqplib';
import {
  decodeMessage,
  deadLetterHeaders,
  describeError,
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
import { assertQueueName, deadLetterQueueName, retryQueueName } from './names';
import {
  BusPublishError,
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

const SYSTEM = 'rabbitmq';

export interface AmqpBusOptions {
  /** `amqp://user:password@host:5672/vhost` (or `amqps://`). */
  url: string;
  /** Durable topic exchange every message is published to. Default `productgen`. */
  exchange?: string;
  logger: BusLogger;
  /** AMQP heartbeat; a dead peer is noticed within about two intervals. Default 30. */
  heartbeatSeconds?: number;
  /** Shown in the RabbitMQ management UI. Default `productgen-bus`. */
  connectionName?: string;
  /** How long `createAmqpBus` keeps trying to reach the broker before it rejects. Default 30000. */
  connectTimeoutMs?: number;
  /** How long publish/subscribe wait for a lost connection to come back before they reject. Default 30000. */
  unavailableTimeoutMs?: number;
  /** Reconnect backoff: doubles from `initial` up to `max`, with ±20 % jitter. Default 100 → 10000 ms. */
  reconnectDelayMs?: { initial?: number; max?: number };
}

export interface AmqpBus extends MessageBus {
  /**
   * The live amqplib connection, `null` while reconnecting. For diagnostics and fault-injection tests:
   * closing it makes the bus reconnect and resume its consumers.
   */
  readonly connection: ChannelModel | null;
}

/** Connects (retrying with backoff for up to `connectTimeoutMs`) and declares the exchange. */
export async function createAmqpBus(options: AmqpBusOptions): Promise<AmqpBus> {
  const bus = new AmqpMessageBus(options);
  await bus.start();
  return bus;
}

/** Channels that have closed, whatever the reason: a failed confirm on one of them means "resend", not "refused". */
const closedChannels = new WeakSet<ConfirmChannel>();
const channelClosedEvents = new WeakMap<ConfirmChannel, Promise<void>>();

function watchChannel(channel: ConfirmChannel, logger: BusLogger, role: string): void {
  channel.on('error', (err: Error) => logger.warn({ err, role }, 'AMQP channel error'));
  channelClosedEvents.set(
    channel,
    new Promise((resolve) =>
      channel.on('close', () => {
        closedChannels.add(channel);
        resolve();
      }),
    ),
  );
}

/** amqplib refused to send at all: the channel or its connection is closing. */
class NotSentError extends Error {
  override name = 'NotSentError';
}

function confirmedPublish(
  channel: ConfirmChannel,
  exchange: string,
  routingKey: string,
  message: StoredMessage,
): Promise<void> {
  const properties: Options.Publish = {
    persistent: true,
    messageId: message.messageId,
    contentType: 'application/json',
    headers: message.headers,
  };
  return new Promise((resolve, reject) => {
    try {
      channel.publish(exchange, routingKey, message.body, properties, (err: unknown) =>
        err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(),
      );
    } catch (err) {
      // amqplib throws synchronously when the channel or connection is closing or closed.
      reject(new NotSentError(describeError(err), { cause: err }));
    }
  });
}

const QUORUM = { 'x-queue-type': 'quorum' } as const;
// Quorum queues can dead-letter at-least-once (never losing a message on the way) only with reject-publish overflow.
const AT_LEAST_ONCE_DEAD_LETTERING = { 'x-dead-letter-strategy': 'at-least-once', 'x-overflow': 'reject-publish' };

/** Idempotent: run on every (re)connection of every subscriber. */
async function declareTopology(
  channel: ConfirmChannel,
  exchange: string,
  queue: string,
  patterns: string[],
  options: ResolvedSubscribeOptions,
): Promise<void> {
  await channel.assertExchange(exchange, 'topic', { durable: true });
  // x-expires: the broker deletes each queue of the subscription after it has been unused that long.
  const expiry = options.expiresWhenUnusedMs === undefined ? {} : { 'x-expires': options.expiresWhenUnusedMs };
  await channel.assertQueue(deadLetterQueueName(queue), { durable: true, arguments: { ...QUORUM, ...expiry } });
  await channel.assertQueue(queue, {
    durable: true,
    arguments: {
      ...QUORUM,
      ...expiry,
      ...AT_LEAST_ONCE_DEAD_LETTERING,
      // Safety net for messages whose consumers keep crashing before they can dead-letter them themselves.
      'x-delivery-limit': options.maxDeliveries,
      'x-dead-letter-exchange': '',
      'x-dead-letter-routing-key': deadLetterQueueName(queue),
    },
  });
  for (const delayMs of new Set(options.retryDelaysMs)) {
    // No consumers: messages wait out the queue's TTL, then the broker dead-letters them back to `queue`.
    await channel.assertQueue(retryQueueName(queue, delayMs), {
      durable: true,
      arguments: {
        ...QUORUM,
        ...expiry,
        ...AT_LEAST_ONCE_DEAD_LETTERING,
        'x-message-ttl': delayMs,
        'x-dead-letter-exchange': '',
        'x-dead-letter-routing-key': queue,
      },
    });
  }
  for (const pattern of patterns) await channel.bindQueue(queue, exchange, pattern);
}

function explainDeclareError(err: unknown, queue: string): Error {
  if ((err as { code?: unknown }).code === 406) {
    return new Error(
      `queue "${queue}" already exists with different arguments (every subscriber of a queue must use the same maxDeliveries): ${describeError(err)}`,
    );
  }
  return err instanceof Error ? err : new Error(String(err));
}

/** What a subscription needs from its bus. */
interface SubscriptionHost {
  readonly exchange: string;
  readonly logger: BusLogger;
  /** A channel closed while its connection was meant to be healthy: recycle the connection to recover. */
  channelLost(model: ChannelModel, role: string): void;
  forget(subscription: AmqpSubscription): void;
}

class AmqpSubscription implements Subscription {
  private channel: ConfirmChannel | null = null;
  private consumerTag: string | null = null;
  private startedOn: ChannelModel | null = null;
  private starting: Promise<void> = Promise.resolve();
  private readonly inFlight = new InFlightTracker();
  private closing: Promise<void> | null = null;

  constructor(
    private readonly host: SubscriptionHost,
    readonly queue: string,
    private readonly patterns: string[],
    private readonly handler: MessageHandler<unknown>,
    private readonly options: ResolvedSubscribeOptions,
  ) {}

  /** Consumes on `model`; a second call for the same connection joins the first. */
  startOn(model: ChannelModel): Promise<void> {
    if (this.startedOn !== model && !this.closing) {
      this.startedOn = model;
      this.starting = this.consumeOn(model);
    }
    return this.starting;
  }

  private async consumeOn(model: ChannelModel): Promise<void> {
    const role = `consumer of ${this.queue}`;
    const channel = await model.createConfirmChannel();
    watchChannel(channel, this.host.logger, role);
    channel.on('close', () => {
      if (this.channel !== channel) return;
      this.channel = null;
      if (!this.closing) this.host.channelLost(model, role);
    });
    try {
      await channel.prefetch(this.options.prefetch);
      await declareTopology(channel, this.host.exchange, this.queue, this.patterns, this.options);
      const { consumerTag } = await channel.consume(this.queue, (raw) => this.onDelivery(channel, model, raw));
      this.channel = channel;
      this.consumerTag = consumerTag;
    } catch (err) {
      await channel.close().catch(() => undefined);
      throw explainDeclareError(err, this.queue);
    }
  }

  private onDelivery(channel: ConfirmChannel, model: ChannelModel, raw: ConsumeMessage | null): void {
    if (raw === null) {
      // The broker cancelled the consumer (queue deleted): a fresh connection re-declares it and consumes again.
      this.host.logger.warn({ queue: this.queue }, 'AMQP consumer cancelled by the broker');
      if (this.channel === channel && !this.closing) this.host.channelLost(model, `consumer of ${this.queue}`);
      return;
    }
    void this.inFlight.track(() => this.process(channel, raw));
  }

  private async process(channel: ConfirmChannel, raw: ConsumeMessage): Promise<void> {
    const headers: Record<string, unknown> = raw.properties.headers ?? {};
    // Quorum queues count returns of unacked messages in x-delivery-count.
    const returns = Number(headers['x-delivery-count']);
    const redeliveries = Number.isFinite(returns) ? returns : raw.fields.redelivered ? 1 : 0;
    const decoded = decodeMessage(raw.properties.messageId, raw.content, headers, redeliveries, raw.fields.routingKey);
    const { logger } = this.host;
    const outcome = await handleDelivery(SYSTEM, this.queue, decoded, this.handler, this.options, logger);
    try {
      // The copy must be confirmed before the original is acked, or a broker crash in between could lose it.
      if (outcome.kind === 'retry') {
        const copy = { messageId: decoded.message.id, body: raw.content, headers: forwardedHeaders(decoded.message) };
        await confirmedPublish(channel, '', retryQueueName(this.queue, outcome.delayMs), copy);
      } else if (outcome.kind === 'dead-letter') {
        const headers = deadLetterHeaders(decoded.message, outcome.reason);
        const copy = { messageId: decoded.message.id, body: raw.content, headers };
        await confirmedPublish(channel, '', deadLetterQueueName(this.queue), copy);
      }
      channel.ack(raw);
    } catch (err) {
      // The channel is gone: the broker returns the unacked message to the queue and redelivers it.
      logger.warn(
        { err, queue: this.queue, messageId: decoded.message.id },
        'could not settle message (channel closed): it will be redelivered',
      );
    }
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.host.forget(this);
      await this.starting.catch(() => undefined);
      const { channel, consumerTag } = this;
      // Cancel first: the broker sends nothing after cancel-ok, so the in-flight count can only go down.
      if (channel && consumerTag) await channel.cancel(consumerTag).catch(() => undefined);
      await this.inFlight.idle();
      this.channel = null;
      if (channel) await channel.close().catch(() => undefined);
    })();
    return this.closing;
  }
}

class AmqpMessageBus implements AmqpBus, SubscriptionHost {
  readonly exchange: string;
  readonly logger: BusLogger;
  private readonly url: string;
  /** The broker address without credentials, for messages and logs. */
  private readonly target: string;
  private readonly connectionName: string;
  private readonly connectTimeoutMs: number;
  private readonly unavailableTimeoutMs: number;
  private readonly reconnectInitialMs: number;
  private readonly reconnectMaxMs: number;

  private state: 'running' | 'closing' | 'closed' | 'aborted' = 'running';
  private model: ChannelModel | null = null;
  private publishChannel: ConfirmChannel | null = null;
  private readonly subscriptions = new Set<AmqpSubscription>();
  private readonly connectionWaiters = new Set<{ resolve: () => void; reject: (err: Error) => void }>();
  private reconnectTimer: NodeJS.Timeout | null = null;
  private closing: Promise<void> | null = null;

  constructor(options: AmqpBusOptions) {
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw new TypeError('url must be an AMQP URL such as amqp://user:password@host:5672');
    }
    if (url.protocol !== 'amqp:' && url.protocol !== 'amqps:') {
      throw new TypeError(`url must use amqp: or amqps: (got ${url.protocol})`);
    }
    const heartbeatSeconds = options.heartbeatSeconds ?? 30;
    assertWholeNumber('heartbeatSeconds', heartbeatSeconds, 0, 65535);
    if (!url.searchParams.has('heartbeat')) url.searchParams.set('heartbeat', String(heartbeatSeconds));
    this.url = url.toString();
    this.target = `${url.protocol}//${url.hostname}:${url.port || (url.protocol === 'amqps:' ? 5671 : 5672)}${url.pathname}`;
    this.exchange = options.exchange ?? 'productgen';
    if (!/^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/.test(this.exchange) || this.exchange.startsWith('amq.')) {
      throw new TypeError(`invalid exchange name "${this.exchange}"`);
    }
    this.logger = options.logger;
    this.connectionName = options.connectionName ?? 'productgen-bus';
    this.connectTimeoutMs = options.connectTimeoutMs ?? 30_000;
    this.unavailableTimeoutMs = options.unavailableTimeoutMs ?? 30_000;
    this.reconnectInitialMs = options.reconnectDelayMs?.initial ?? 100;
    this.reconnectMaxMs = options.reconnectDelayMs?.max ?? 10_000;
    assertWholeNumber('connectTimeoutMs', this.connectTimeoutMs, 0);
    assertWholeNumber('unavailableTimeoutMs', this.unavailableTimeoutMs, 0);
    assertWholeNumber('reconnectDelayMs.initial', this.reconnectInitialMs, 1);
    assertWholeNumber('reconnectDelayMs.max', this.reconnectMaxMs, this.reconnectInitialMs);
  }

  get connection(): ChannelModel | null {
    return this.model;
  }

  async start(): Promise<void> {
    const deadline = Date.now() + this.connectTimeoutMs;
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.connectOnce();
        this.logger.info({ broker: this.target, exchange: this.exchange }, 'AMQP bus connected');
        return;
      } catch (err) {
        const delay = this.backoff(attempt);
        if (Date.now() + delay > deadline) {
          throw new BusUnavailableError(`cannot connect to the AMQP broker at ${this.target}: ${describeError(err)}`);
        }
        this.logger.warn({ err, broker: this.target, attempt }, 'AMQP connection failed: retrying');
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  private backoff(attempt: number): number {
    const base = Math.min(this.reconnectMaxMs, this.reconnectInitialMs * 2 ** Math.min(attempt - 1, 30));
    return Math.round(base * (0.8 + Math.random() * 0.4));
  }

  private async connectOnce(): Promise<void> {
    const model = await amqp.connect(this.url, { clientProperties: { connection_name: this.connectionName } });
    model.on('error', (err: Error) => {
      if (this.state !== 'aborted') this.logger.warn({ err, broker: this.target }, 'AMQP connection error');
    });
    model.on('close', (err?: Error) => this.onConnectionClosed(model, err));
    model.on('blocked', (reason: string) => this.logger.warn({ reason }, 'AMQP broker blocked publishing'));
    model.on('unblocked', () => this.logger.info({}, 'AMQP broker unblocked publishing'));
    try {
      const channel = await model.createConfirmChannel();
      watchChannel(channel, this.logger, 'publisher');
      channel.on('close', () => {
        if (this.publishChannel !== channel) return;
        this.publishChannel = null; // publishes wait for the next connection instead of spinning on a dead channel
        this.channelLost(model, 'publisher');
      });
      await channel.assertExchange(this.exchange, 'topic', { durable: true });
      if (this.state !== 'running') throw new BusUnavailableError(`the bus is ${this.state}`);
      this.model = model;
      this.publishChannel = channel;
    } catch (err) {
      await model.close().catch(() => undefined);
      throw err;
    }
    for (const waiter of this.connectionWaiters) waiter.resolve();
    this.connectionWaiters.clear();
    // Each subscription resumes on its own; one that fails is retried with the next connection.
    await Promise.all(
      [...this.subscriptions].map((subscription) =>
        subscription
          .startOn(model)
          .catch((err: unknown) =>
            this.logger.error({ err, queue: subscription.queue }, 'could not resume consumer after reconnecting'),
          ),
      ),
    );
  }

  private onConnectionClosed(model: ChannelModel, err: Error | undefined): void {
    if (this.model !== model) return;
    this.model = null;
    this.publishChannel = null;
    if (this.state !== 'running') return;
    this.logger.warn({ err, broker: this.target }, 'AMQP connection lost: reconnecting');
    this.scheduleReconnect(1);
  }

  private scheduleReconnect(attempt: number): void {
    if (this.reconnectTimer || this.state !== 'running') return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.state !== 'running') return;
      this.connectOnce().then(
        () => this.logger.info({ broker: this.target, attempt }, 'AMQP connection re-established'),
        (err: unknown) => {
          this.logger.warn({ err, broker: this.target, attempt }, 'AMQP reconnect failed');
          this.scheduleReconnect(attempt + 1);
        },
      );
    }, this.backoff(attempt));
  }

  channelLost(model: ChannelModel, role: string): void {
    // Deferred: when the whole connection drops, its channels report first; by then there is nothing to recycle.
    setImmediate(() => {
      if (this.model !== model || this.state !== 'running') return;
      this.logger.warn({ role }, 'AMQP channel closed unexpectedly: recycling the connection');
      model.close().catch(() => undefined);
    });
  }

  forget(subscription: AmqpSubscription): void {
    this.subscriptions.delete(subscription);
  }

  /** The current connection and its publishing channel, waiting for a reconnection until `deadline`. */
  private async connected(deadline: number): Promise<{ model: ChannelModel; channel: ConfirmChannel }> {
    for (;;) {
      if (this.model && this.publishChannel && (this.state === 'running' || this.state === 'closing')) {
        return { model: this.model, channel: this.publishChannel };
      }
      if (this.state !== 'running') throw new BusUnavailableError(`the bus is ${this.state}`);
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new BusUnavailableError(
          `no connection to the AMQP broker at ${this.target} within ${this.unavailableTimeoutMs} ms`,
        );
      }
      await new Promise<void>((resolve, reject) => {
        const waiter = {
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
          reject: (err: Error) => {
            clearTimeout(timer);
            reject(err);
          },
        };
        const timer = setTimeout(() => {
          this.connectionWaiters.delete(waiter);
          resolve(); // the loop reports the timeout
        }, remaining);
        this.connectionWaiters.add(waiter);
      });
    }
  }

  /** Waits (at most until `deadline`) for a channel that is going away to be gone. */
  private async untilClosed(channel: ConfirmChannel, deadline: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now()))));
    await Promise.race([channelClosedEvents.get(channel), timeout]);
    clearTimeout(timer);
  }

  private rejectConnectionWaiters(): void {
    const err = new BusUnavailableError(`the bus is ${this.state}`);
    for (const waiter of this.connectionWaiters) waiter.reject(err);
    this.connectionWaiters.clear();
  }

  async publish<T>(topic: string, payload: T, options?: PublishOptions): Promise<void> {
    await publishTraced(SYSTEM, topic, payload, options, async (message) => {
      const deadline = Date.now() + this.unavailableTimeoutMs;
      for (;;) {
        const { channel } = await this.connected(deadline);
        try {
          await confirmedPublish(channel, this.exchange, topic, message);
          return;
        } catch (err) {
          // A negative confirm on a live channel is the broker's answer; anything else means the channel went
          // away first. Then send again once reconnected: same message id, so a copy that did get through is
          // dropped by idempotent consumers.
          if (!(err instanceof NotSentError) && !closedChannels.has(channel)) {
            throw new BusPublishError(
              `the broker refused message ${message.messageId} (${topic}): ${describeError(err)}`,
              { cause: err },
            );
          }
          this.logger.debug?.(
            { err, messageId: message.messageId, topic },
            'connection lost before the publish was confirmed: sending again after reconnecting',
          );
          await this.untilClosed(channel, deadline);
        }
      }
    });
  }

  async subscribe<T>(
    queue: string,
    topics: string[],
    handler: MessageHandler<T>,
    options?: SubscribeOptions,
  ): Promise<Subscription> {
    if (this.state !== 'running') throw new BusUnavailableError(`the bus is ${this.state}`);
    const { patterns, resolved } = validateSubscription(queue, topics, handler, options);
    const subscription = new AmqpSubscription(this, queue, patterns, handler as MessageHandler<unknown>, resolved);
    this.subscriptions.add(subscription);
    try {
      const { model } = await this.connected(Date.now() + this.unavailableTimeoutMs);
      await subscription.startOn(model);
      return subscription;
    } catch (err) {
      this.subscriptions.delete(subscription);
      throw err;
    }
  }

  async takeDeadLetters<T = unknown>(queue: string, options?: TakeDeadLettersOptions): Promise<DeadLetter<T>[]> {
    assertQueueName(queue);
    const limit = resolveLimit(options);
    const { model } = await this.connected(Date.now() + this.unavailableTimeoutMs);
    const channel = await model.createChannel();
    channel.on('error', () => undefined); // a missing queue closes the channel; reported below
    const taken: DeadLetter<T>[] = [];
    try {
      for (let raw = await channel.get(deadLetterQueueName(queue)); raw;) {
        const headers: Record<string, unknown> = raw.properties.headers ?? {};
        const decoded = decodeMessage(raw.properties.messageId, raw.content, headers, 0, raw.fields.routingKey);
        taken.push(readDeadLetter(queue, decoded, headers) as DeadLetter<T>);
        if (taken.length >= limit) break;
        raw = await channel.get(deadLetterQueueName(queue));
      }
      // Removed from the queue only once all of them are in hand.
      if (taken.length > 0) channel.ackAll();
      await channel.close();
      return taken;
    } catch (err) {
      await channel.close().catch(() => undefined);
      // Never subscribed, so nothing was ever dead-lettered.
      if ((err as { code?: unknown }).code === 404) return [];
      throw err;
    }
  }

  async ping(): Promise<void> {
    const channel = this.publishChannel;
    if (!channel || this.state !== 'running') {
      throw new BusUnavailableError(
        this.state === 'running' ? `reconnecting to the AMQP broker at ${this.target}` : `the bus is ${this.state}`,
      );
    }
    await channel.checkExchange(this.exchange);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.state === 'aborted') return;
      this.state = 'closing';
      this.stopReconnecting();
      await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
      const { model, publishChannel } = this;
      if (publishChannel) await publishChannel.waitForConfirms().catch(() => undefined);
      this.state = 'closed';
      this.model = null;
      this.publishChannel = null;
      if (model) await model.close().catch(() => undefined);
      this.logger.info({ broker: this.target }, 'AMQP bus closed');
    })();
    return this.closing;
  }

  async abort(): Promise<void> {
    if (this.state === 'closed' || this.state === 'aborted') return;
    this.state = 'aborted';
    this.stopReconnecting();
    this.subscriptions.clear();
    const { model } = this;
    this.model = null;
    this.publishChannel = null;
    if (!model) return;
    const closed = new Promise<void>((resolve) => model.once('close', () => resolve()));
    // Drop the TCP connection without a protocol goodbye: to the broker this looks like a crashed process.
    // amqplib notices a dead socket through its 'error' (or 'end') event, so destroy it with an error.
    const socket = (model.connection as unknown as { stream: { destroy(err?: Error): void } }).stream;
    socket.destroy(new Error('connection aborted by the bus'));
    await closed;
  }

  private stopReconnecting(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.rejectConnectionWaiters();
  }
}

function assertWholeNumber(name: string, value: number, min: number, max = Number.MAX_SAFE_INTEGER): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new TypeError(`${name} must be a whole number from ${min} to ${max} (got ${String(value)})`);
  }
}
