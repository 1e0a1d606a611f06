// Throughput of each implementation: publish N messages with confirms in parallel batches, consume them with two
// competing consumers, print the figures. Run: `npm run build -w @productgen/bus && node packages/bus/dist/bench/throughput.js`
// (set AMQP_URL to include RabbitMQ; BENCH_MESSAGES to change N, default 20000).
import { randomBytes } from 'node:crypto';
import * as amqp from 'amqplib';
import { createAmqpBus } from '../amqp';
import { createInProcessBroker, createInProcessBus } from '../in-process';
import { deadLetterQueueName, retryQueueName } from '../names';
import type { BusLogger, MessageBus } from '../types';
import { describeCpu } from '@productgen/host-cpu';

const logger: BusLogger = { info() {}, warn() {}, error: (obj, msg) => console.error(msg, obj) };
const total = Number(process.env.BENCH_MESSAGES ?? 20_000);
const batchSize = 500;
const prefetch = 100;

async function measure(name: string, connect: () => Promise<MessageBus>, queue: string): Promise<void> {
  const [publisher, consumerA, consumerB] = [await connect(), await connect(), await connect()];
  const seen = new Set<string>();
  let allSeen!: () => void;
  const done = new Promise<void>((resolve) => (allSeen = resolve));
  const handler = async (message: { id: string }) => {
    seen.add(message.id);
    if (seen.size === total) allSeen();
  };
  await consumerA.subscribe(queue, ['bench.#'], handler, { prefetch, retryDelaysMs: [1000] });
  await consumerB.subscribe(queue, ['bench.#'], handler, { prefetch, retryDelaysMs: [1000] });

  const started = performance.now();
  for (let start = 0; start < total; start += batchSize) {
    const batch = Array.from({ length: Math.min(batchSize, total - start) }, (_, i) => start + i);
    await Promise.all(batch.map((n) => publisher.publish('bench.item', { n, pad: 'x'.repeat(200) })));
  }
  const published = performance.now();
  await done;
  const consumed = performance.now();
  await Promise.all([publisher.close(), consumerA.close(), consumerB.close()]);

  const rate = (ms: number) => Math.round((total / ms) * 1000);
  console.log(
    `${name.padEnd(10)} ${total} messages: publish (confirmed) ${rate(published - started)} msg/s, ` +
      `end-to-end ${rate(consumed - started)} msg/s (${Math.round(consumed - started)} ms)`,
  );
}

async function main(): Promise<void> {
  console.log(describeCpu());
  const broker = createInProcessBroker();
  await measure('in-process', async () => createInProcessBus(broker, { logger }), 'bench');
  broker.close();

  const url = process.env.AMQP_URL;
  if (!url) {
    console.log('amqp       skipped (set AMQP_URL)');
    return;
  }
  const id = randomBytes(4).toString('hex');
  const exchange = `bus-bench-${id}`;
  const queue = `bus-bench-${id}`;
  try {
    await measure('amqp', () => createAmqpBus({ url, exchange, logger }), queue);
  } finally {
    const admin = await amqp.connect(url);
    const channel = await admin.createChannel();
    for (const name of [queue, deadLetterQueueName(queue), retryQueueName(queue, 1000)])
      await channel.deleteQueue(name);
    await channel.deleteExchange(exchange);
    await admin.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
