/** A message as a handler receives it. */
export interface BusMessage<T = unknown> {
  /** Stable across retries and redeliveries: the key for idempotent handling. */
  id: string;
  topic: string;
  payload: T;
  /** Application headers plus W3C trace context (`traceparent`, `tracestate`). Names starting with `x-` are reserved. */
  headers: Record<string, string>;
  /** 1 on the first delivery; counts every delivery of this message to this queue (retries and redeliveries). */
  deliveryCount: number;
  publishedAt: Date;
}

export type MessageHandler<T = unknown> = (message: BusMessage<T>) => Promise<void>;

export interface PublishOptions {
  /** Defaults to a random UUID. Reuse an id to let consumers drop the duplicate. */
  messageId?: string;
  headers?: Record<string, string>;
}

export interface SubscribeOptions {
  /** Most handlers of this subscription running at once (AMQP prefetch). Default 8. */
  prefetch?: number;
  /** Deliveries before a message is dead-lettered. Must be the same for every subscriber of a queue. Default 5. */
  maxDeliveries?: number;
  /** Wait before delivery n+1 after failed delivery n; the last entry repeats. Default [1000, 5000, 30000]. */
  retryDelaysMs?: number[];
  /**
   * For a queue of one process's own (a name unique to it, so every such process gets every message: a broadcast):
   * the broker deletes the queue, with its retry and dead-letter queues, once it has had no consumer for this long,
   * so a process that is gone leaves nothing behind. Unset: the queue stays until deleted. Must be the same for
   * every subscriber of a queue.
   */
  expiresWhenUnusedMs?: number;
}

export interface Subscription {
  readonly queue: string;
  /** Stops taking new messages, waits for the handlers in flight to finish (and be acked), then detaches. */
  close(): Promise<void>;
}

/** A message that exhausted its deliveries (or could not be read), as stored in `<queue>.dlq`. */
export interface DeadLetter<T = unknown> {
  queue: string;
  message: BusMessage<T>;
  /** The last handler error, or why the bus gave up on the message. */
  reason: string;
  deadLetteredAt: Date;
}

export interface TakeDeadLettersOptions {
  /** Most dead letters to take at once. Default 100. */
  limit?: number;
}

export interface MessageBus {
  /** Resolves once the message is durably accepted (broker confirm); rejects on nack or when the broker stays unreachable. */
  publish<T>(topic: string, payload: T, options?: PublishOptions): Promise<void>;
  /**
   * Consumes `queue` (declared if missing, shared by every subscriber with that name: competing consumers),
   * bound to the topic patterns (`*` = one word, `#` = zero or more words). At-least-once: the message is acked
   * only after the handler's promise resolves; a rejection retries with backoff, then dead-letters.
   */
  subscribe<T>(
    queue: string,
    topics: string[],
    handler: MessageHandler<T>,
    options?: SubscribeOptions,
  ): Promise<Subscription>;
  /** Removes up to `limit` messages from `<queue>.dlq` and returns them (oldest first). */
  takeDeadLetters<T = unknown>(queue: string, options?: TakeDeadLettersOptions): Promise<DeadLetter<T>[]>;
  /** Readiness: resolves when the broker answers. */
  ping(): Promise<void>;
  /** Graceful: stops consuming, waits for in-flight handlers to finish and ack, flushes publishes, disconnects. */
  close(): Promise<void>;
  /** Abrupt, like a crashed process: disconnects without acking; unacked messages go back to their queues. */
  abort(): Promise<void>;
}

/** Pino-compatible subset, so any structured logger fits. */
export interface BusLogger {
  debug?(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** The broker cannot be reached (now, or within the wait allowed), or the bus is closed. */
export class BusUnavailableError extends Error {
  override name = 'BusUnavailableError';
}

/** The broker refused a publish (negative confirm). */
export class BusPublishError extends Error {
  override name = 'BusPublishError';
}
