import express, { type RequestHandler } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { MessageBus, MessageHandler, SubscribeOptions } from '@productgen/bus';
import { envFields } from './config';
import { checkReadiness, type ReadinessCheck } from './health';
import type { Lifecycle, RunningServer } from './lifecycle';
import type { Logger } from './logger';

/**
 * The port of /metrics, /healthz and /readyz in distributed mode (a render worker has no other port). The images set
 * 9464; unset, any free port (logged), so several processes on one machine never collide.
 */
export const metricsConfig = { METRICS_PORT: envFields.port(0) };

/** One registry per process (in embedded mode every composed service shares it). */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by method, route and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  registers: [metricsRegistry],
});
const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from request to response, by method, route and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [metricsRegistry],
});
const messagesConsumed = new Counter({
  name: 'bus_messages_consumed_total',
  help: 'Messages handled from each queue, by outcome (ok: acked; failed: retried or dead-lettered)',
  labelNames: ['queue', 'outcome'] as const,
  registers: [metricsRegistry],
});
const messagesInFlight = new Gauge({
  name: 'bus_messages_in_flight',
  help: 'Messages taken from each queue and not yet acked',
  labelNames: ['queue'] as const,
  registers: [metricsRegistry],
});
/** For the render queue (generation.render) this is the render time of one generation. */
const messageHandling = new Histogram({
  name: 'bus_message_handling_seconds',
  help: 'Time a handler took per message, by queue (generation.render: render time of one generation)',
  labelNames: ['queue', 'outcome'] as const,
  buckets: [0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 20, 40, 80, 160, 320],
  registers: [metricsRegistry],
});

const infoGauges = new Map<string, Gauge>();

/**
 * A Prometheus info metric (`<name>_info{labels} 1`): a fact about the process that operators filter and join on,
 * such as which kernels its models run. Setting it again replaces the earlier labels.
 */
export function recordInfo(
  name: string,
  help: string,
  labels: Record<string, string> | ReadonlyArray<Record<string, string>>,
): void {
  // One series, or several (one per model, say) sharing the same label names.
  const series = Array.isArray(labels) ? labels : [labels as Record<string, string>];
  let gauge = infoGauges.get(name);
  if (!gauge) {
    const labelNames = Object.keys(series[0] ?? {});
    gauge = new Gauge({ name: `${name}_info`, help, labelNames, registers: [metricsRegistry] });
    infoGauges.set(name, gauge);
  }
  gauge.reset();
  for (const one of series) gauge.set(one, 1);
}

/** Counts and times every response. The route label is the matched route pattern, never the raw path. */
export function recordHttpMetrics(): RequestHandler {
  return (req, res, next) => {
    const stopTimer = httpDuration.startTimer();
    res.once('finish', () => {
      const route = req.route as { path?: unknown } | undefined;
      const labels = {
        method: req.method,
        route: typeof route?.path === 'string' ? `${req.baseUrl}${route.path}` : 'unmatched',
        status_code: String(res.statusCode),
      };
      httpRequests.inc(labels);
      stopTimer(labels);
    });
    next();
  };
}

/** The same bus, with every subscription's handler counted and timed per queue. */
export function instrumentBus(bus: MessageBus): MessageBus {
  return {
    publish: (topic, payload, options) => bus.publish(topic, payload, options),
    subscribe: <T>(queue: string, topics: string[], handler: MessageHandler<T>, options?: SubscribeOptions) =>
      bus.subscribe<T>(
        queue,
        topics,
        async (message) => {
          messagesInFlight.inc({ queue });
          const stopTimer = messageHandling.startTimer({ queue });
          let outcome = 'failed';
          try {
            await handler(message);
            outcome = 'ok';
          } finally {
            messagesInFlight.dec({ queue });
            stopTimer({ outcome });
            messagesConsumed.inc({ queue, outcome });
          }
        },
        options,
      ),
    takeDeadLetters: (queue, options) => bus.takeDeadLetters(queue, options),
    ping: () => bus.ping(),
    close: () => bus.close(),
    abort: () => bus.abort(),
  };
}

/** /metrics (Prometheus text format), /healthz and /readyz on their own port, drained with the process. */
export function serveOperations(
  lifecycle: Lifecycle,
  options: { port: number; host?: string; logger: Logger; readiness?: Record<string, ReadinessCheck> },
): Promise<RunningServer> {
  const app = express();
  app.disable('x-powered-by');
  app.get('/metrics', async (_req, res) => {
    res.type(metricsRegistry.contentType).send(await metricsRegistry.metrics());
  });
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const report = await checkReadiness(options.readiness ?? {}, 2000, options.logger);
    res.status(report.status === 'ok' ? 200 : 503).json(report);
  });
  return lifecycle.serve(app, options.port, options.host);
}
