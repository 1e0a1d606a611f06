import {
  context,
  propagation,
  trace,
  SpanKind,
  SpanStatusCode,
  type Attributes,
  type Context,
  type Span,
  type TextMapGetter,
  type Tracer,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

const TRACER_NAME = 'productgen';

let propagationInstalled = false;

/**
 * Registers the W3C trace-context (+ baggage) propagator and an AsyncLocalStorage context manager, once per process.
 * Without an SDK this still carries an incoming traceparent through the request and out on outgoing calls.
 */
export function installContextPropagation(): void {
  if (propagationInstalled) return;
  propagationInstalled = true;
  const manager = new AsyncLocalStorageContextManager().enable();
  // false means another copy of the API already installed one (e.g. a second module instance): keep theirs.
  if (!context.setGlobalContextManager(manager)) manager.disable();
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
}

export interface TelemetryOptions {
  serviceName: string;
  /** OTLP base URL (OTEL_EXPORTER_OTLP_ENDPOINT); traces go to `${otlpEndpoint}/v1/traces`. Unset: no export. */
  otlpEndpoint?: string | undefined;
}

export interface Telemetry {
  /** True when spans are recorded and exported over OTLP. */
  readonly exporting: boolean;
  readonly serviceName: string;
  /** Flushes pending spans and stops the exporter. */
  shutdown(): Promise<void>;
}

let activeTelemetry: Telemetry | undefined;

/**
 * Sets up tracing for the process. The first call wins: in embedded mode all services share one process and one
 * tracer provider, so later calls return the same handle.
 */
export function initTelemetry(options: TelemetryOptions): Telemetry {
  installContextPropagation();
  if (activeTelemetry) return activeTelemetry;

  const endpoint = options.otlpEndpoint?.trim();
  if (!endpoint) {
    activeTelemetry = { exporting: false, serviceName: options.serviceName, shutdown: async () => undefined };
    return activeTelemetry;
  }
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` })),
    ],
  });
  // Not provider.register(): that would install a second context manager and propagator.
  trace.setGlobalTracerProvider(provider);
  const telemetry: Telemetry = {
    exporting: true,
    serviceName: options.serviceName,
    shutdown: async () => {
      await provider.shutdown();
      trace.disable();
      if (activeTelemetry === telemetry) activeTelemetry = undefined;
    },
  };
  activeTelemetry = telemetry;
  return telemetry;
}

export function getTracer(): Tracer {
  return trace.getTracer(TRACER_NAME);
}

export interface SpanOptions {
  kind?: SpanKind;
}

/** Runs fn inside a new active span; a thrown error is recorded on the span (status ERROR) and rethrown. */
export async function withSpan<T>(
  name: string,
  attributes: Attributes,
  fn: (span: Span) => Promise<T> | T,
  options: SpanOptions = {},
): Promise<T> {
  return getTracer().startActiveSpan(name, { attributes, kind: options.kind ?? SpanKind.INTERNAL }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Writes traceparent/tracestate (and baggage) of `ctx` into a header-like carrier (HTTP headers, message headers). */
export function injectTraceHeaders<C extends Record<string, unknown>>(carrier: C, ctx: Context = context.active()): C {
  propagation.inject(ctx, carrier);
  return carrier;
}

const headerGetter: TextMapGetter<Record<string, unknown>> = {
  keys: (c) => Object.keys(c),
  get: (c, key) => {
    // Node lower-cases incoming header names; message headers may keep their case.
    const value = c[key] ?? c[key.toLowerCase()];
    if (typeof value === 'string' || Array.isArray(value)) return value as string | string[];
    if (Buffer.isBuffer(value)) return value.toString('utf8');
    return undefined;
  },
};

/** The context described by a carrier's traceparent (or the active context when it has none). */
export function extractTraceContext(carrier: Record<string, unknown>, base: Context = context.active()): Context {
  return propagation.extract(base, carrier, headerGetter);
}

/** Trace id of the active span, if there is a valid one. */
export function currentTraceId(): string | undefined {
  const spanContext = trace.getActiveSpan()?.spanContext();
  return spanContext && trace.isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
}

export { SpanKind, SpanStatusCode };
