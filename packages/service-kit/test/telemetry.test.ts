import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { trace } from '@opentelemetry/api';
import {
  currentTraceId,
  extractTraceContext,
  initTelemetry,
  injectTraceHeaders,
  withSpan,
} from '@productgen/service-kit';
import { listen } from './helpers';

jest.setTimeout(60_000);

interface ExportedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  status?: { code?: number };
}
interface ExportRequest {
  resourceSpans: {
    resource: { attributes: { key: string; value: { stringValue?: string } }[] };
    scopeSpans: { spans: ExportedSpan[] }[];
  }[];
}

const repoRoot = path.resolve(__dirname, '../../..');

describe('telemetry', () => {
  it('without an OTLP endpoint exports nothing but still propagates context', async () => {
    const telemetry = initTelemetry({ serviceName: 'no-export', otlpEndpoint: undefined });
    expect(telemetry.exporting).toBe(false);

    const parent = extractTraceContext({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' });
    const carried = injectTraceHeaders<Record<string, unknown>>({ 'x-other': 1 }, parent);
    expect(carried).toEqual({
      'x-other': 1,
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    });
    // Message headers may arrive as Buffers (AMQP).
    const fromBuffer = extractTraceContext({ traceparent: Buffer.from(String(carried.traceparent)) });
    expect(trace.getSpanContext(fromBuffer)?.traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    await expect(withSpan('step', {}, () => Promise.reject(new Error('nope')))).rejects.toThrow('nope');
    expect(currentTraceId()).toBeUndefined();
  });

  // The OTLP exporter loads `http` with a dynamic import(), which jest's VM does not allow: run it in a child node.
  it('with an OTLP endpoint exports the server span (continuing the caller trace) and its child spans', async () => {
    const exports: ExportRequest[] = [];
    const collector = await listen((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        if (req.url === '/v1/traces') exports.push(JSON.parse(body) as ExportRequest);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    const callerTraceId = 'aaaabbbbccccddddeeeeffff00001111';
    try {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [
          '--conditions=@productgen/source',
          '-r',
          path.join(__dirname, 'fixtures/ts-require-hook.cjs'),
          path.join(__dirname, 'fixtures/otlp-export.ts'),
          collector.url,
          `00-${callerTraceId}-1111222233334444-01`,
        ],
        { cwd: repoRoot },
      );
      const child = JSON.parse(stdout) as { exporting: boolean; body: { traceId: string }; traceparent: string };
      expect(child.exporting).toBe(true);
      expect(child.body.traceId).toBe(callerTraceId);
      const serverSpanId = /^00-[0-9a-f]{32}-([0-9a-f]{16})-01$/.exec(child.traceparent)?.[1];

      const resources = exports.flatMap((request) => request.resourceSpans);
      expect(resources[0]?.resource.attributes).toContainEqual({
        key: 'service.name',
        value: { stringValue: 'otlp-child' },
      });
      const spans = resources.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans));
      const serverSpan = spans.find((span) => span.name === 'GET /work/:id');
      expect(serverSpan).toMatchObject({
        traceId: callerTraceId,
        parentSpanId: '1111222233334444',
        spanId: serverSpanId,
      });
      expect(spans.find((span) => span.name === 'render image')).toMatchObject({
        traceId: callerTraceId,
        parentSpanId: serverSpanId,
      });
      // SpanStatusCode.ERROR
      expect(spans.find((span) => span.name === 'failing step')?.status?.code).toBe(2);
    } finally {
      await collector.close();
    }
  });
});
