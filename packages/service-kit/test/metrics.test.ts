import { createInProcessBroker, createInProcessBus } from '@productgen/bus';
import {
  createHttpApp,
  createLifecycle,
  createLogger,
  instrumentBus,
  metricsRegistry,
  serveOperations,
} from '@productgen/service-kit';
import { listen } from './helpers';

const logger = createLogger({ service: 'metrics-test', level: 'silent' });

async function scrape(url: string): Promise<string> {
  const response = await fetch(`${url}/metrics`);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text();
}

function sampleValue(text: string, metric: string, labels: string): number {
  const line = text.split('\n').find((row) => row.startsWith(`${metric}{`) && row.includes(labels));
  return line ? Number(line.split(' ').pop()) : 0;
}

test('requests are counted and timed by route pattern, and served in Prometheus format with the probes', async () => {
  const lifecycle = createLifecycle({ logger });
  const operations = await serveOperations(lifecycle, { port: 0, host: '127.0.0.1', logger });
  const app = createHttpApp({ name: 'metrics-test', logger });
  app.get('/items/:id', (_req, res) => {
    res.json({ ok: true });
  });
  const server = await listen(app.finalize());
  try {
    const labels = 'method="GET",route="/items/:id",status_code="200"';
    const before = sampleValue(await scrape(operations.url), 'http_requests_total', labels);
    await fetch(`${server.url}/items/1`);
    await fetch(`${server.url}/items/2`);
    const text = await scrape(operations.url);
    expect(sampleValue(text, 'http_requests_total', labels)).toBe(before + 2);
    expect(sampleValue(text, 'http_request_duration_seconds_count', labels)).toBe(before + 2);
    expect(text).toContain('process_cpu_seconds_total');
    expect((await fetch(`${operations.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${operations.url}/readyz`)).status).toBe(200);
  } finally {
    await server.close();
    await lifecycle.shutdown('test');
  }
});

test('handled messages are counted per queue and outcome, with their handling time', async () => {
  const bus = instrumentBus(createInProcessBus(createInProcessBroker(), { logger }));
  let failOnce = true;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  await bus.subscribe<{ n: number }>(
    'metrics.test',
    ['metrics.happened'],
    async () => {
      if (failOnce) {
        failOnce = false;
        throw new Error('first delivery fails');
      }
      done();
    },
    { retryDelaysMs: [10] },
  );
  await bus.publish('metrics.happened', { n: 1 });
  await finished;
  // Closing waits for the handler in flight to return, and so for its counts.
  await bus.close();
  const text = await metricsRegistry.metrics();
  expect(sampleValue(text, 'bus_messages_consumed_total', 'queue="metrics.test",outcome="failed"')).toBe(1);
  expect(sampleValue(text, 'bus_messages_consumed_total', 'queue="metrics.test",outcome="ok"')).toBe(1);
  expect(sampleValue(text, 'bus_message_handling_seconds_count', 'queue="metrics.test",outcome="ok"')).toBe(1);
  expect(sampleValue(text, 'bus_messages_in_flight', 'queue="metrics.test"')).toBe(0);
});
