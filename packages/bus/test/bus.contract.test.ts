// One contract, two implementations: every test here runs against the in-process bus, and against RabbitMQ when
// AMQP_URL is set. Each run uses its own exchange and queue names and deletes what it declared.
import { randomBytes } from 'node:crypto';
import * as amqp from 'amqplib';
import { waitFor } from '@productgen/test-kit';
import { context, propagation, trace, TraceFlags } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BusUnavailableError,
  createAmqpBus,
  createInProcessBroker,
  createInProcessBus,
  deadLetterQueueName,
  retryQueueName,
  type AmqpBus,
  type BusLogger,
  type BusMessage,
  type DeadLetter,
  type MessageBus,
  type MessageHandler,
  type SubscribeOptions,
  type Subscription,
} from '../src';

jest.setTimeout(60_000);

const logger: BusLogger = { debug() {}, info() {}, warn() {}, error() {} };
const runId = randomBytes(4).toString('hex');
const AMQP_URL = process.env.AMQP_URL;

interface Implementation {
  name: string;
  connect(): Promise<MessageBus>;
  /** Deletes whatever the run declared on the broker. */
  cleanup(queues: Map<string, Set<number>>): Promise<void>;
}

function inProcessImplementation(): Implementation {
  const broker = createInProcessBroker();
  return {
    name: 'in-process',
    connect: async () => createInProcessBus(broker, { logger }),
    cleanup: async () => broker.close(),
  };
}

function amqpImplementation(url: string): Implementation {
  const exchange = `bus-test-${runId}`;
  return {
    name: 'amqp',
    connect: () => createAmqpBus({ url, exchange, logger, connectionName: `bus-test-${runId}` }),
    cleanup: async (queues) => {
      const admin = await amqp.connect(url);
      const channel = await admin.createChannel();
      for (const [queue, delays] of queues) {
        await channel.deleteQueue(queue);
        await channel.deleteQueue(deadLetterQueueName(queue));
        for (const delay of delays) await channel.deleteQueue(retryQueueName(queue, delay));
      }
      await channel.deleteExchange(exchange);
      await admin.close();
    },
  };
}

const implementations = [inProcessImplementation(), ...(AMQP_URL ? [amqpImplementation(AMQP_URL)] : [])];

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for the queue's first dead letters (taken from the bus, as an operator would) and answers them. */
async function firstDeadLetters(bus: MessageBus, queue: string): Promise<DeadLetter[]> {
  const deadLetters: DeadLetter[] = [];
  await waitFor(
    async () => {
      deadLetters.push(...(await bus.takeDeadLetters(queue)));
      return deadLetters.length > 0;
    },
    'the dead letter',
    30_000,
  );
  return deadLetters;
}

describe.each(implementations)('$name message bus', (impl) => {
  const declaredQueues = new Map<string, Set<number>>();
  const openBuses: MessageBus[] = [];
  let queueCounter = 0;

  const connect = async (): Promise<MessageBus> => {
    const bus = await impl.connect();
    openBuses.push(bus);
    return bus;
  };

  const newQueue = (label: string): string => `bus-test-${runId}-${label}-${(queueCounter += 1)}`;

  /** Subscribes and remembers what was declared, for cleanup. */
  const subscribe = <T>(
    bus: MessageBus,
    queue: string,
    topics: string[],
    handler: MessageHandler<T>,
    options: SubscribeOptions = {},
  ): Promise<Subscription> => {
    const delays = declaredQueues.get(queue) ?? new Set<number>();
    (options.retryDelaysMs ?? [1000, 5000, 30000]).forEach((delay) => delays.add(delay));
    declaredQueues.set(queue, delays);
    return bus.subscribe(queue, topics, handler, options);
  };

  /** A topic unique to the test, so runs and tests never see each other's messages. */
  const newTopic = (label: string): string => `t${runId}.${label}.${(queueCounter += 1)}`;

  afterEach(async () => {
    await Promise.all(openBuses.splice(0).map((bus) => bus.close()));
  });

  afterAll(async () => {
    await impl.cleanup(declaredQueues);
  });

  test('round trip: payload, topic, message id, headers, delivery count and publish time', async () => {
    const bus = await connect();
    const queue = newQueue('roundtrip');
    const topic = newTopic('orders.created');
    const received = deferred<BusMessage<{ orderId: number; items: string[] }>>();
    await subscribe<{ orderId: number; items: string[] }>(bus, queue, [topic], async (message) =>
      received.resolve(message),
    );

    const before = Date.now();
    await bus.publish(
      topic,
      { orderId: 42, items: ['mug', 'lamp'] },
      { messageId: 'order-42', headers: { tenant: 'acme' } },
    );
    const message = await received.promise;

    expect(message.id).toBe('order-42');
    expect(message.topic).toBe(topic);
    expect(message.payload).toEqual({ orderId: 42, items: ['mug', 'lamp'] });
    expect(message.headers.tenant).toBe('acme');
    expect(Object.keys(message.headers).some((name) => name.startsWith('x-'))).toBe(false);
    expect(message.deliveryCount).toBe(1);
    expect(message.publishedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(message.publishedAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
  });

  test('generates a distinct message id when none is given', async () => {
    const bus = await connect();
    const topic = newTopic('ids');
    const ids: string[] = [];
    const both = deferred();
    await subscribe(bus, newQueue('ids'), [topic], async (message) => {
      ids.push(message.id);
      if (ids.length === 2) both.resolve();
    });
    await Promise.all([bus.publish(topic, 1), bus.publish(topic, 2)]);
    await both.promise;
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[0]).not.toBe(ids[1]);
  });

  test('routes by topic pattern: "*" is one word, "#" is zero or more', async () => {
    const bus = await connect();
    const root = `r${runId}`;
    const end = `${root}.end`;
    const routes = { oneWord: [`${root}.img.*.done`], anyTail: [`${root}.img.#`], anyHead: [`#.failed`] };
    const received: Record<string, string[]> = {};
    const finished: Array<Promise<void>> = [];
    for (const [name, patterns] of Object.entries(routes)) {
      const got: string[] = (received[name] = []);
      const done = deferred();
      finished.push(done.promise);
      // prefetch 1 keeps each queue in publish order, so the end marker arrives last.
      await subscribe(
        bus,
        newQueue(name),
        [...patterns, end],
        async (message) => {
          if (message.topic === end) done.resolve();
          else got.push(message.topic);
        },
        { prefetch: 1 },
      );
    }
    for (const topic of [
      `${root}.img.gen.done`,
      `${root}.img.gen.sub.done`,
      `${root}.img`,
      `${root}.img.x.failed`,
      `${root}.other.failed`,
      `${root}.img.done`,
    ]) {
      await bus.publish(topic, {});
    }
    await bus.publish(end, {});
    await Promise.all(finished);

    expect(received.oneWord).toEqual([`${root}.img.gen.done`]);
    expect(received.anyTail).toEqual([
      `${root}.img.gen.done`,
      `${root}.img.gen.sub.done`,
      `${root}.img`,
      `${root}.img.x.failed`,
      `${root}.img.done`,
    ]);
    expect(received.anyHead).toEqual([`${root}.img.x.failed`, `${root}.other.failed`]);
  });

  test('a failing handler is retried with backoff, then dead-lettered, while other messages keep flowing', async () => {
    const bus = await connect();
    const queue = newQueue('poison');
    const topic = newTopic('jobs');
    const poisonDeliveries: Array<{ count: number; at: number }> = [];
    const handledGood: number[] = [];
    const allGood = deferred();
    let goodHandledBeforeLastPoisonDelivery = 0;
    await subscribe<{ n: number; poison?: boolean }>(
      bus,
      queue,
      [topic],
      async (message) => {
        if (message.payload.poison) {
          poisonDeliveries.push({ count: message.deliveryCount, at: Date.now() });
          if (message.deliveryCount === 3) goodHandledBeforeLastPoisonDelivery = handledGood.length;
          throw new Error(`cannot render job ${message.payload.n}`);
        }
        handledGood.push(message.payload.n);
        if (handledGood.length === 5) allGood.resolve();
      },
      { maxDeliveries: 3, retryDelaysMs: [200, 400], prefetch: 2 },
    );

    await bus.publish(topic, { n: 0, poison: true }, { messageId: `poison-${runId}`, headers: { origin: 'test' } });
    for (let n = 1; n <= 5; n += 1) await bus.publish(topic, { n });
    await allGood.promise;

    const deadLetters = await firstDeadLetters(bus, queue);

    expect(handledGood.sort()).toEqual([1, 2, 3, 4, 5]);
    // The good messages did not wait for the poison message's retries.
    expect(goodHandledBeforeLastPoisonDelivery).toBe(5);
    expect(poisonDeliveries.map((delivery) => delivery.count)).toEqual([1, 2, 3]);
    const [first, second, third] = poisonDeliveries.map((delivery) => delivery.at) as [number, number, number];
    expect(second - first).toBeGreaterThanOrEqual(150);
    expect(third - second).toBeGreaterThanOrEqual(300);

    expect(deadLetters).toHaveLength(1);
    const [deadLetter] = deadLetters as [DeadLetter];
    expect(deadLetter.queue).toBe(queue);
    expect(deadLetter.message.id).toBe(`poison-${runId}`);
    expect(deadLetter.message.topic).toBe(topic);
    expect(deadLetter.message.payload).toEqual({ n: 0, poison: true });
    expect(deadLetter.message.headers.origin).toBe('test');
    expect(deadLetter.message.deliveryCount).toBe(3);
    expect(deadLetter.reason).toContain('cannot render job 0');
    expect(deadLetter.deadLetteredAt.getTime()).toBeGreaterThanOrEqual(third - 1000);

    // Taken means gone, and a dead letter is never delivered again.
    expect(await bus.takeDeadLetters(queue)).toEqual([]);
    expect(poisonDeliveries).toHaveLength(3);
  });

  test('a message whose consumer dies before acking is redelivered to another consumer', async () => {
    const dying = await connect();
    const survivor = await connect();
    const queue = newQueue('abort');
    const topic = newTopic('work');
    const started = deferred<BusMessage>();
    const releaseDying = deferred();
    let dyingSettled = false;
    await subscribe(dying, queue, [topic], async (message) => {
      started.resolve(message);
      await releaseDying.promise;
      dyingSettled = true;
    });
    await dying.publish(topic, { job: 'resize' }, { messageId: `abort-${runId}` });
    const first = await started.promise;

    const redelivered = deferred<BusMessage>();
    const survivorDeliveries: BusMessage[] = [];
    await subscribe(survivor, queue, [topic], async (message) => {
      survivorDeliveries.push(message);
      redelivered.resolve(message);
    });
    await dying.abort();
    const second = await redelivered.promise;

    expect(first.deliveryCount).toBe(1);
    expect(second.id).toBe(`abort-${runId}`);
    expect(second.payload).toEqual({ job: 'resize' });
    expect(second.deliveryCount).toBe(2);

    // The dead connection's handler finishing late changes nothing.
    releaseDying.resolve();
    await waitFor(() => dyingSettled, 'the abandoned handler to finish', 30_000);
    await expect(dying.publish(topic, {})).rejects.toThrow(BusUnavailableError);
    expect(survivorDeliveries).toHaveLength(1);
    expect(await survivor.takeDeadLetters(queue)).toEqual([]);
  });

  test('a message whose consumers keep dying is dead-lettered once it passes maxDeliveries', async () => {
    const queue = newQueue('crashloop');
    const topic = newTopic('crash');
    const options = { maxDeliveries: 2, retryDelaysMs: [100] };
    const publisher = await connect();
    for (let crash = 1; crash <= 2; crash += 1) {
      const doomed = await connect();
      const started = deferred();
      await subscribe(
        doomed,
        queue,
        [topic],
        () => {
          started.resolve();
          return new Promise<void>(() => undefined); // hangs until its connection dies
        },
        options,
      );
      if (crash === 1) await publisher.publish(topic, { crash }, { messageId: `crash-${runId}` });
      await started.promise;
      await doomed.abort();
    }
    const handled: BusMessage[] = [];
    const last = await connect();
    await subscribe(last, queue, [topic], async (message) => void handled.push(message), options);

    const deadLetters = await firstDeadLetters(last, queue);
    expect(handled).toEqual([]);
    expect(deadLetters[0]?.message.id).toBe(`crash-${runId}`);
    expect(deadLetters[0]?.reason).toMatch(/delivery limit|delivery_limit/);
  });

  test('10,000 messages are all consumed exactly once by an idempotent handler', async () => {
    const publisher = await connect();
    const consumerA = await connect();
    const consumerB = await connect();
    const queue = newQueue('bulk');
    const topic = newTopic('bulk');
    const total = 10_000;
    const seen = new Set<string>();
    let invocations = 0;
    let duplicates = 0;
    const allSeen = deferred();
    const handler = async (message: BusMessage<{ n: number }>) => {
      invocations += 1;
      if (seen.has(message.id)) {
        duplicates += 1;
        return;
      }
      seen.add(message.id);
      if (seen.size === total) allSeen.resolve();
    };
    await subscribe(consumerA, queue, [topic], handler, { prefetch: 100 });
    await subscribe(consumerB, queue, [topic], handler, { prefetch: 100 });

    const ids = Array.from({ length: total }, (_, n) => `bulk-${runId}-${n}`);
    const batchSize = 500;
    for (let start = 0; start < total; start += batchSize) {
      await Promise.all(
        ids
          .slice(start, start + batchSize)
          .map((id, offset) => publisher.publish(topic, { n: start + offset }, { messageId: id })),
      );
    }
    await allSeen.promise;
    await Promise.all([consumerA.close(), consumerB.close()]);

    expect(seen.size).toBe(total);
    expect(ids.every((id) => seen.has(id))).toBe(true);
    expect(duplicates).toBe(0);
    expect(invocations).toBe(total);
    expect(await publisher.takeDeadLetters(queue)).toEqual([]);
  }, 180_000);

  test('never runs more handlers at once than the prefetch allows', async () => {
    const bus = await connect();
    const topic = newTopic('prefetch');
    const total = 20;
    let inFlight = 0;
    let maxInFlight = 0;
    let handled = 0;
    const done = deferred();
    await subscribe(
      bus,
      newQueue('prefetch'),
      [topic],
      async () => {
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await sleep(50); // simulated work, long enough for deliveries to pile up
        inFlight -= 1;
        handled += 1;
        if (handled === total) done.resolve();
      },
      { prefetch: 3 },
    );
    await Promise.all(Array.from({ length: total }, (_, n) => bus.publish(topic, { n })));
    await done.promise;
    expect(maxInFlight).toBe(3);
  });

  test('graceful close waits for the handler in flight, which then acks', async () => {
    const bus = await connect();
    const queue = newQueue('close');
    const topic = newTopic('close');
    const started = deferred();
    const release = deferred();
    const events: string[] = [];
    await subscribe(bus, queue, [topic], async () => {
      started.resolve();
      await release.promise;
      // A handler may still publish its follow-up while the bus is closing.
      await bus.publish(topic, { followUp: true });
      events.push('handler finished');
    });
    await bus.publish(topic, { first: true }, { messageId: `close-${runId}` });
    await started.promise;

    const closed = bus.close().then(() => events.push('bus closed'));
    await sleep(200);
    expect(events).toEqual([]);
    await expect(bus.subscribe(newQueue('late'), [topic], async () => undefined)).rejects.toThrow(BusUnavailableError);
    release.resolve();
    await closed;
    expect(events).toEqual(['handler finished', 'bus closed']);
    await expect(bus.publish(topic, {})).rejects.toThrow(BusUnavailableError);
    await expect(bus.ping()).rejects.toThrow(BusUnavailableError);

    // The first message was acked: a new consumer gets only the follow-up and a marker, never the first again.
    const next = await connect();
    const received: unknown[] = [];
    const marker = deferred();
    await subscribe(
      next,
      queue,
      [topic],
      async (message) => {
        received.push(message.payload);
        if ((message.payload as { marker?: boolean }).marker) marker.resolve();
      },
      { prefetch: 1 },
    );
    await next.publish(topic, { marker: true });
    await marker.promise;
    expect(received).toEqual([{ followUp: true }, { marker: true }]);
  });

  describe('trace context', () => {
    const contextManager = new AsyncLocalStorageContextManager();
    beforeAll(() => {
      context.setGlobalContextManager(contextManager.enable());
      propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    });
    afterAll(() => {
      context.disable();
      propagation.disable();
    });

    test('travels from the publisher to the handler, which runs inside it', async () => {
      const bus = await connect();
      const topic = newTopic('traced');
      const received = deferred<{ traceparent?: string; traceId?: string }>();
      await subscribe(bus, newQueue('traced'), [topic], async (message) => {
        received.resolve({
          traceparent: message.headers.traceparent,
          traceId: trace.getSpanContext(context.active())?.traceId,
        });
      });
      const traceId = randomBytes(16).toString('hex');
      const parent = trace.setSpanContext(context.active(), {
        traceId,
        spanId: randomBytes(8).toString('hex'),
        traceFlags: TraceFlags.SAMPLED,
      });
      await context.with(parent, () => bus.publish(topic, { hello: 'trace' }));
      const { traceparent, traceId: handlerTraceId } = await received.promise;
      expect(traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
      expect(handlerTraceId).toBe(traceId);
    });
  });

  test('ping answers while the bus is open', async () => {
    const bus = await connect();
    await expect(bus.ping()).resolves.toBeUndefined();
  });

  test('refuses bad input with clear errors', async () => {
    const bus = await connect();
    const handler = async () => undefined;
    await expect(bus.publish('', {})).rejects.toThrow(TypeError);
    await expect(bus.publish('orders.*', {})).rejects.toThrow(/invalid topic/);
    await expect(bus.publish('orders..created', {})).rejects.toThrow(/invalid topic/);
    await expect(bus.publish('orders', 10n)).rejects.toThrow(/JSON-serialisable/);
    await expect(bus.publish('orders', undefined)).rejects.toThrow(/JSON-serialisable/);
    await expect(bus.publish('orders', {}, { headers: { 'x-death': 'no' } })).rejects.toThrow(/reserved/);
    await expect(bus.publish('orders', {}, { headers: { n: 1 as unknown as string } })).rejects.toThrow(
      /must be a string/,
    );
    await expect(bus.subscribe('amq.mine', ['a'], handler)).rejects.toThrow(/invalid queue name/);
    await expect(bus.subscribe(newQueue('bad'), [], handler)).rejects.toThrow(/non-empty array/);
    await expect(bus.subscribe(newQueue('bad'), ['a.*x'], handler)).rejects.toThrow(/invalid topic pattern/);
    await expect(bus.subscribe(newQueue('bad'), ['a'], handler, { prefetch: 0 })).rejects.toThrow(/prefetch/);
    await expect(bus.subscribe(newQueue('bad'), ['a'], handler, { retryDelaysMs: [] })).rejects.toThrow(
      /retryDelaysMs/,
    );
    await expect(bus.takeDeadLetters(newQueue('never'), { limit: 0 })).rejects.toThrow(/limit/);
    expect(await bus.takeDeadLetters(newQueue('never'))).toEqual([]);
    // Still healthy afterwards.
    await expect(bus.ping()).resolves.toBeUndefined();
  });

  test('refuses a second subscriber of a queue with a different maxDeliveries', async () => {
    const bus = await connect();
    const queue = newQueue('mismatch');
    const topic = newTopic('mismatch');
    await subscribe(bus, queue, [topic], async () => undefined, { maxDeliveries: 3 });
    const other = await connect();
    await expect(subscribe(other, queue, [topic], async () => undefined, { maxDeliveries: 4 })).rejects.toThrow(
      /maxDeliveries/,
    );
  });

  if (impl.name === 'amqp') {
    test('reconnects after the connection drops: consumers resume and publishing works again', async () => {
      const bus = (await connect()) as AmqpBus;
      const topic = newTopic('reconnect');
      const received: string[] = [];
      const waiters = new Map<string, () => void>();
      await subscribe<{ step: string }>(bus, newQueue('reconnect'), [topic], async (message) => {
        received.push(message.payload.step);
        waiters.get(message.payload.step)?.();
      });
      const arrival = (step: string) => new Promise<void>((resolve) => waiters.set(step, resolve));

      const beforeArrived = arrival('before');
      await bus.publish(topic, { step: 'before' });
      await beforeArrived;

      const dropped = bus.connection;
      expect(dropped).not.toBeNull();
      await dropped?.close();
      // Publishing during the outage waits for the new connection.
      const afterArrived = arrival('after');
      await bus.publish(topic, { step: 'after' });
      await afterArrived;

      expect(bus.connection).not.toBeNull();
      expect(bus.connection).not.toBe(dropped);
      await expect(bus.ping()).resolves.toBeUndefined();
      // At-least-once: "before" comes twice if the drop beat its ack to the broker.
      expect([...new Set(received)]).toEqual(['before', 'after']);
    });

    test('publishes in flight when the connection drops are sent again after reconnecting: none is lost', async () => {
      const bus = (await connect()) as AmqpBus;
      const topic = newTopic('inflight');
      const total = 300;
      const seen = new Set<string>();
      const allSeen = deferred();
      await subscribe(
        bus,
        newQueue('inflight'),
        [topic],
        async (message) => {
          seen.add(message.id);
          if (seen.size === total) allSeen.resolve();
        },
        { prefetch: 50 },
      );
      const ids = Array.from({ length: total }, (_, n) => `inflight-${runId}-${n}`);
      const dropped = bus.connection;
      const publish = (id: string) => bus.publish(topic, { id }, { messageId: id });
      // The first half is on the wire awaiting confirms when the connection goes; the second half is refused by
      // the closing connection. Both must be sent again on the new connection.
      const onTheWire = ids.slice(0, total / 2).map(publish);
      await new Promise((resolve) => setImmediate(resolve));
      const closing = dropped?.close();
      const duringClose = ids.slice(total / 2).map(publish);
      await closing;
      const publishes = [...onTheWire, ...duringClose];
      await Promise.all(publishes);
      await allSeen.promise;
      expect(bus.connection).not.toBe(dropped);
      expect(ids.every((id) => seen.has(id))).toBe(true);
    });

    test('dead-letters a message that is not JSON instead of retrying it', async () => {
      const bus = (await connect()) as AmqpBus;
      const queue = newQueue('malformed');
      const topic = newTopic('malformed');
      const handled: unknown[] = [];
      await subscribe(bus, queue, [topic], async (message) => void handled.push(message.payload));
      const raw = await bus.connection!.createChannel();
      raw.sendToQueue(queue, Buffer.from('{not json'), { messageId: `malformed-${runId}`, persistent: true });
      await raw.close();
      const deadLetters = await firstDeadLetters(bus, queue);
      expect(handled).toEqual([]);
      expect(deadLetters[0]?.reason).toContain('not JSON');
      expect(deadLetters[0]?.message.payload).toBe('{not json');
    });
  }
});

describe('createAmqpBus', () => {
  test('rejects a URL that is not AMQP', async () => {
    await expect(createAmqpBus({ url: 'http://localhost', logger })).rejects.toThrow(/amqp:/);
    await expect(createAmqpBus({ url: 'not a url', logger })).rejects.toThrow(/AMQP URL/);
  });

  test('gives up with a clear error when the broker cannot be reached', async () => {
    await expect(
      createAmqpBus({ url: 'amqp://127.0.0.1:1', logger, connectTimeoutMs: 300, reconnectDelayMs: { initial: 50 } }),
    ).rejects.toThrow(/cannot connect to the AMQP broker at amqp:\/\/127\.0\.0\.1:1/);
  });
});

describe('expiresWhenUnusedMs (a queue of one process, for broadcasts)', () => {
  test('is refused unless whole milliseconds from 1', async () => {
    const bus = createInProcessBus(createInProcessBroker(), { logger });
    for (const expiresWhenUnusedMs of [0, 1.5, -1]) {
      await expect(
        bus.subscribe('expiry-validation', ['expiry.test'], async () => undefined, { expiresWhenUnusedMs }),
      ).rejects.toThrow(/expiresWhenUnusedMs must be whole milliseconds from 1/);
    }
    await bus.close();
  });

  (AMQP_URL ? test : test.skip)(
    'RabbitMQ deletes the queue and its retry and dead-letter queues once it has had no consumer that long',
    async () => {
      const url = AMQP_URL as string;
      const exchange = `bus-test-${runId}-expiry`;
      const queue = `bus-test-${runId}.expiring`;
      const bus = await createAmqpBus({ url, exchange, logger });
      const subscription = await bus.subscribe(queue, ['expiry.test'], async () => undefined, {
        expiresWhenUnusedMs: 1000,
        retryDelaysMs: [1000],
      });
      await subscription.close();
      await bus.close();

      const admin = await amqp.connect(url);
      const exists = async (name: string) => {
        const channel = await admin.createChannel();
        channel.on('error', () => undefined); // a missing queue closes the channel: that is the answer
        try {
          await channel.checkQueue(name);
          await channel.close();
          return true;
        } catch {
          return false;
        }
      };
      const declared = [queue, deadLetterQueueName(queue), retryQueueName(queue, 1000)];
      try {
        await waitFor(
          async () => (await Promise.all(declared.map(exists))).every((found) => !found),
          'the unused queues to expire',
          20_000,
        );
      } finally {
        const channel = await admin.createChannel();
        await channel.deleteExchange(exchange);
        await admin.close();
      }
    },
  );
});
