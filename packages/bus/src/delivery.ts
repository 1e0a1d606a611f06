// The semantics both implementations share: message encoding, the header layout, retry/dead-letter decisions and
// trace context. Each implementation only moves bytes; what a message looks like and what happens to it is decided here.
import { randomUUID } from 'node:crypto';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { assertQueueName, assertTopic, assertTopicPattern } from './names';
import type {
  BusLogger,
  BusMessage,
  DeadLetter,
  MessageHandler,
  PublishOptions,
  SubscribeOptions,
  TakeDeadLettersOptions,
} from './types';

/** Bus bookkeeping travels in headers; names starting with `x-` never reach handlers' `headers`. */
export const BUS_HEADER = {
  topic: 'x-bus-topic',
  publishedAt: 'x-bus-published-at',
  /** Deliveries already made before the message (re-)entered its queue: how retries keep count. */
  priorDeliveries: 'x-bus-deliveries',
  deadLetterReason: 'x-bus-dead-letter-reason',
  deadLetteredAt: 'x-bus-dead-lettered-at',
} as const;

const RESERVED_HEADER_PREFIX = 'x-';
const MAX_REASON_LENGTH = 2000;
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface ResolvedSubscribeOptions {
  prefetch: number;
  maxDeliveries: number;
  retryDelaysMs: number[];
  expiresWhenUnusedMs?: number;
}

export const DEFAULT_SUBSCRIBE_OPTIONS: Readonly<ResolvedSubscribeOptions> = Object.freeze({
  prefetch: 8,
  maxDeliveries: 5,
  retryDelaysMs: [1000, 5000, 30000],
});

export function resolveSubscribeOptions(options: SubscribeOptions = {}): ResolvedSubscribeOptions {
  const prefetch = options.prefetch ?? DEFAULT_SUBSCRIBE_OPTIONS.prefetch;
  const maxDeliveries = options.maxDeliveries ?? DEFAULT_SUBSCRIBE_OPTIONS.maxDeliveries;
  const retryDelaysMs = options.retryDelaysMs ?? DEFAULT_SUBSCRIBE_OPTIONS.retryDelaysMs;
  if (!Number.isInteger(prefetch) || prefetch < 1 || prefetch > 65535) {
    throw new TypeError(`prefetch must be an integer from 1 to 65535 (got ${String(prefetch)})`);
  }
  if (!Number.isInteger(maxDeliveries) || maxDeliveries < 1 || maxDeliveries > 1000) {
    throw new TypeError(`maxDeliveries must be an integer from 1 to 1000 (got ${String(maxDeliveries)})`);
  }
  if (
    !Array.isArray(retryDelaysMs) ||
    retryDelaysMs.length === 0 ||
    !retryDelaysMs.every((ms) => Number.isInteger(ms) && ms >= 0 && ms <= MAX_TIMER_MS)
  ) {
    throw new TypeError(`retryDelaysMs must be a non-empty array of whole milliseconds from 0 to ${MAX_TIMER_MS}`);
  }
  const { expiresWhenUnusedMs } = options;
  if (
    expiresWhenUnusedMs !== undefined &&
    (!Number.isInteger(expiresWhenUnusedMs) || expiresWhenUnusedMs < 1 || expiresWhenUnusedMs > MAX_TIMER_MS)
  ) {
    throw new TypeError(`expiresWhenUnusedMs must be whole milliseconds from 1 to ${MAX_TIMER_MS}`);
  }
  return { prefetch, maxDeliveries, retryDelaysMs: [...retryDelaysMs], expiresWhenUnusedMs };
}

/** Backoff after failed delivery number `deliveryCount`; the schedule's last entry repeats. */
export function retryDelay(retryDelaysMs: readonly number[], deliveryCount: number): number {
  return retryDelaysMs[Math.min(deliveryCount, retryDelaysMs.length) - 1] ?? 0;
}

/** A message as stored in a queue: the same layout for AMQP and in-process. */
export interface StoredMessage {
  messageId: string;
  body: Buffer;
  headers: Record<string, string | number>;
}

function encodePayload(payload: unknown): Buffer {
  let json: string | undefined;
  try {
    json = JSON.stringify(payload);
  } catch (err) {
    throw new TypeError(`payload must be JSON-serialisable: ${describeError(err)}`, { cause: err });
  }
  if (json === undefined) throw new TypeError(`payload must be JSON-serialisable (got ${typeof payload})`);
  return Buffer.from(json, 'utf8');
}

function validatedHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  if (headers === undefined) return {};
  if (typeof headers !== 'object' || headers === null) throw new TypeError('headers must be an object of strings');
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== 'string') throw new TypeError(`header "${name}" must be a string`);
    if (name.length === 0 || name.toLowerCase().startsWith(RESERVED_HEADER_PREFIX)) {
      throw new TypeError(`header name "${name}" is not allowed: names starting with "x-" are reserved for the bus`);
    }
  }
  return { ...headers };
}

const tracer = () => trace.getTracer('@productgen/bus');

/**
 * Validates and encodes a message, opens a PRODUCER span, injects the W3C trace context into its headers and
 * hands it to `send`, which resolves once the broker has the message.
 */
export async function publishTraced(
  system: string,
  topic: string,
  payload: unknown,
  options: PublishOptions | undefined,
  send: (message: StoredMessage) => Promise<void>,
): Promise<void> {
  assertTopic(topic);
  const messageId = options?.messageId ?? randomUUID();
  if (typeof messageId !== 'string' || messageId.length === 0 || messageId.length > 255) {
    throw new TypeError('messageId must be a non-empty string of at most 255 characters');
  }
  const appHeaders = validatedHeaders(options?.headers);
  const body = encodePayload(payload);
  const span = tracer().startSpan(`${topic} publish`, {
    kind: SpanKind.PRODUCER,
    attributes: {
      'messaging.system': system,
      'messaging.operation.type': 'send',
      'messaging.destination.name': topic,
      'messaging.message.id': messageId,
    },
  });
  propagation.inject(trace.setSpan(context.active(), span), appHeaders);
  try {
    await send({
      messageId,
      body,
      headers: { ...appHeaders, [BUS_HEADER.topic]: topic, [BUS_HEADER.publishedAt]: Date.now() },
    });
  } catch (err) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: describeError(err) });
    throw err;
  } finally {
    span.end();
  }
}

export interface DecodedMessage {
  message: BusMessage;
  /** Set when the message cannot be handled at all (it goes straight to the dead-letter queue). */
  malformed?: string;
}

/**
 * @param redeliveries times this copy went back to its queue unacked (consumer died), as the broker counts them.
 * @param routingKey fallback topic for messages published by something other than this bus.
 */
export function decodeMessage(
  messageId: string | undefined,
  body: Buffer,
  rawHeaders: Record<string, unknown>,
  redeliveries: number,
  routingKey: string,
): DecodedMessage {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(rawHeaders)) {
    if (!name.startsWith(RESERVED_HEADER_PREFIX) && typeof value === 'string') headers[name] = value;
  }
  const topicHeader = rawHeaders[BUS_HEADER.topic];
  const publishedAt = Number(rawHeaders[BUS_HEADER.publishedAt]);
  const priorDeliveries = Number(rawHeaders[BUS_HEADER.priorDeliveries]);
  const text = body.toString('utf8');
  let payload: unknown = text;
  let malformed: string | undefined;
  try {
    payload = JSON.parse(text);
  } catch {
    malformed = 'malformed message: the body is not JSON';
  }
  if (!messageId) malformed = 'malformed message: no message id, so it cannot be handled idempotently';
  return {
    message: {
      id: messageId ?? '',
      topic: typeof topicHeader === 'string' ? topicHeader : routingKey,
      payload,
      headers,
      deliveryCount: (Number.isFinite(priorDeliveries) ? priorDeliveries : 0) + redeliveries + 1,
      publishedAt: new Date(Number.isFinite(publishedAt) ? publishedAt : Date.now()),
    },
    malformed,
  };
}

/** Headers for the copy of `message` sent to a retry or dead-letter queue: its deliveries so far travel with it. */
export function forwardedHeaders(
  message: BusMessage,
  extra: Record<string, string | number> = {},
): Record<string, string | number> {
  return {
    ...message.headers,
    [BUS_HEADER.topic]: message.topic,
    [BUS_HEADER.publishedAt]: message.publishedAt.getTime(),
    [BUS_HEADER.priorDeliveries]: message.deliveryCount,
    ...extra,
  };
}

export function deadLetterHeaders(message: BusMessage, reason: string): Record<string, string | number> {
  return forwardedHeaders(message, {
    [BUS_HEADER.deadLetterReason]: reason.slice(0, MAX_REASON_LENGTH),
    [BUS_HEADER.deadLetteredAt]: Date.now(),
  });
}

/** Reads a message from a dead-letter queue, whoever put it there (this bus, or the broker's delivery limit). */
export function readDeadLetter(
  queue: string,
  decoded: DecodedMessage,
  rawHeaders: Record<string, unknown>,
): DeadLetter {
  const reason = rawHeaders[BUS_HEADER.deadLetterReason];
  const brokerReason = rawHeaders['x-first-death-reason'];
  const at = Number(rawHeaders[BUS_HEADER.deadLetteredAt]);
  const { message } = decoded;
  return {
    queue,
    // The copy in the DLQ records the deliveries that were made, not a new one.
    message: { ...message, deliveryCount: Math.max(1, message.deliveryCount - 1) },
    reason:
      typeof reason === 'string'
        ? reason
        : `dead-lettered by the broker (${typeof brokerReason === 'string' ? brokerReason : 'unknown reason'})`,
    deadLetteredAt: new Date(Number.isFinite(at) ? at : Date.now()),
  };
}

export type DeliveryOutcome =
  { kind: 'ack' } | { kind: 'retry'; delayMs: number; reason: string } | { kind: 'dead-letter'; reason: string };

/**
 * Runs the handler inside the publisher's trace context (as a CONSUMER span) and decides what becomes of the
 * message. Never rejects.
 */
export async function handleDelivery(
  system: string,
  queue: string,
  decoded: DecodedMessage,
  handler: MessageHandler<unknown>,
  options: ResolvedSubscribeOptions,
  logger: BusLogger,
): Promise<DeliveryOutcome> {
  const { message, malformed } = decoded;
  const logFields = { queue, topic: message.topic, messageId: message.id, deliveryCount: message.deliveryCount };
  if (malformed) {
    logger.error(logFields, malformed);
    return { kind: 'dead-letter', reason: malformed };
  }
  if (message.deliveryCount > options.maxDeliveries) {
    // Only crash loops get here: failed handlers are dead-lettered below before they exceed the limit.
    const reason = `delivery limit reached: delivered ${message.deliveryCount - 1} times without being acked (the consumer died or disconnected while handling it)`;
    logger.error(logFields, reason);
    return { kind: 'dead-letter', reason };
  }
  const parent = propagation.extract(ROOT_CONTEXT, message.headers);
  const span = tracer().startSpan(
    `${queue} process`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.system': system,
        'messaging.operation.type': 'process',
        'messaging.destination.name': message.topic,
        'messaging.consumer.group.name': queue,
        'messaging.message.id': message.id,
        'messaging.rabbitmq.message.delivery_count': message.deliveryCount,
      },
    },
    parent,
  );
  try {
    await context.with(trace.setSpan(parent, span), () => handler(message));
    return { kind: 'ack' };
  } catch (err) {
    const reason = describeError(err);
    span.recordException(err instanceof Error ? err : reason);
    span.setStatus({ code: SpanStatusCode.ERROR, message: reason });
    if (message.deliveryCount >= options.maxDeliveries) {
      logger.error({ ...logFields, err }, 'message handler failed on its last delivery: dead-lettering the message');
      return { kind: 'dead-letter', reason };
    }
    const delayMs = retryDelay(options.retryDelaysMs, message.deliveryCount);
    logger.warn({ ...logFields, err, retryInMs: delayMs }, 'message handler failed: retrying later');
    return { kind: 'retry', delayMs, reason };
  } finally {
    span.end();
  }
}

export function describeError(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.slice(0, MAX_REASON_LENGTH);
}

/** Counts work in flight and lets a closer wait until none is left. */
export class InFlightTracker {
  private count = 0;
  private idleWaiters: Array<() => void> = [];

  get size(): number {
    return this.count;
  }

  async track<R>(work: () => Promise<R>): Promise<R> {
    this.count += 1;
    try {
      return await work();
    } finally {
      this.count -= 1;
      if (this.count === 0) this.idleWaiters.splice(0).forEach((resolve) => resolve());
    }
  }

  idle(): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}

/** The checks both implementations make before subscribing. */
export function validateSubscription(
  queue: string,
  topics: string[],
  handler: unknown,
  options: SubscribeOptions | undefined,
): { patterns: string[]; resolved: ResolvedSubscribeOptions } {
  assertQueueName(queue);
  if (!Array.isArray(topics) || topics.length === 0) throw new TypeError('topics must be a non-empty array');
  topics.forEach(assertTopicPattern);
  if (typeof handler !== 'function') throw new TypeError('handler must be a function');
  return { patterns: [...new Set(topics)], resolved: resolveSubscribeOptions(options) };
}

export function resolveLimit(options: TakeDeadLettersOptions | undefined): number {
  const limit = options?.limit ?? 100;
  if (!Number.isInteger(limit) || limit < 1)
    throw new TypeError(`limit must be a positive integer (got ${String(limit)})`);
  return limit;
}
