import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getPriority, tmpdir } from 'node:os';
import path from 'node:path';
import { startDistributedPlatform, type DistributedPlatform } from '../support/distributed-platform';
import { nicenessOf } from '../support/rehearsal-processes';
import { repoRoot, signInWithDevIdentity } from '@productgen/test-kit/platform-process';
import { pollUntil } from '@productgen/test-kit';
import { withRabbitMq } from '../support/rabbitmq';

// `npm run start:distributed` (scripts/distributed/start.mjs): every compose service as its own process from its
// build, on real RabbitMQ and the embedded MongoDB and S3 processes. One creation goes through the gateway, and
// with OTEL_EXPORTER_OTLP_ENDPOINT pointing at an OTLP/HTTP receiver in this test, its spans form one trace:
// gateway → generation → billing, and generation → bus → render worker.
// Starting 13 processes takes a minute on an idle machine, several on a loaded one.
jest.setTimeout(900_000);

const PHOTO = path.resolve(repoRoot, '../shared/photos/test/electronics/headphones-black.jpg');
const SIGNUP_CREDITS = 10;

interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, string | undefined>;
}

/** An OTLP/HTTP (JSON) trace receiver: what the OpenTelemetry Collector would get. */
async function startTraceReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; close(): Promise<void> }> {
  const spans: ReceivedSpan[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const payload = JSON.parse(body) as {
          resourceSpans: Array<{
            resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
            scopeSpans: Array<{
              spans: Array<
                Omit<ReceivedSpan, 'service' | 'attributes'> & {
                  attributes: Array<{ key: string; value: { stringValue?: string } }>;
                }
              >;
            }>;
          }>;
        };
        for (const resourceSpans of payload.resourceSpans) {
          const service =
            resourceSpans.resource.attributes.find((attribute) => attribute.key === 'service.name')?.value
              .stringValue ?? '';
          for (const scope of resourceSpans.scopeSpans) {
            for (const span of scope.spans) {
              const attributes = Object.fromEntries(
                span.attributes.map((attribute) => [attribute.key, attribute.value.stringValue]),
              );
              spans.push({ ...span, service, attributes, parentSpanId: span.parentSpanId ?? '' });
            }
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

withRabbitMq('start:distributed', (AMQP_URL) => {
  describe('npm run start:distributed', () => {
    let dir: string;
    let receiver: Awaited<ReturnType<typeof startTraceReceiver>>;
    let platform: DistributedPlatform;
    let urls: { web: string; api: string };
    let sessionKey: string;
    let generationUuid: string;

    const api = async <T>(pathname: string, json?: unknown): Promise<T> => {
      const answer = await fetch(`${urls.api}${pathname}`, {
        method: json === undefined ? 'GET' : 'POST',
        headers: { 'X-Session-Key': sessionKey, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
        body: json === undefined ? undefined : JSON.stringify(json),
      });
      const text = await answer.text();
      if (answer.status !== 200) throw new Error(`${pathname} answered ${answer.status}: ${text.slice(0, 500)}`);
      return JSON.parse(text) as T;
    };

    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'productgen-distributed-'));
      receiver = await startTraceReceiver();
      platform = await startDistributedPlatform({
        dataDir: dir,
        amqpUrl: AMQP_URL,
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
      });
      urls = { web: platform.webUrl, api: platform.apiUrl };
    });

    afterAll(async () => {
      await platform?.stop('SIGTERM');
      await receiver?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    test('the web origin serves the shell, the registry and each microfrontend through its own host', async () => {
      const page = await fetch(`${urls.web}/dashboard`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<html');
      const registry = (await (await fetch(`${urls.web}/remotes.json`)).json()) as Record<string, string>;
      expect(Object.keys(registry).sort()).toEqual(['mfe_create', 'mfe_dashboard', 'mfe_marketing', 'mfe_tools']);
      for (const manifestPath of Object.values(registry)) {
        const manifest = await fetch(`${urls.web}${manifestPath}`);
        expect(manifest.status).toBe(200);
        expect(manifest.headers.get('cache-control')).toBe('no-cache');
      }
      const runtime = (await (await fetch(`${urls.web}/runtime-config.json`)).json()) as { apiBaseUrl: string };
      expect(runtime.apiBaseUrl).toBe(`http://localhost:${new URL(urls.api).port}`);
    });

    test("each process competes for the CPU with its container's weight: the render worker's cpu_shares 256 is 6 steps nicer", async () => {
      // The launcher runs at this test's niceness (a CI runner may be niced already); nice(1) adds to it.
      const base = getPriority();
      expect(await nicenessOf(platform.pids['generation-worker']!)).toBe(Math.min(19, base + 6));
      for (const name of ['gateway', 'auth', 'generation', 'bulk'])
        expect(await nicenessOf(platform.pids[name]!)).toBe(base);
    });

    test('a creation goes through the gateway to generation, billing and a render worker', async () => {
      const signedIn = await signInWithDevIdentity(urls.api, {
        email: 'distributed@example.com',
        given_name: 'Dist',
        family_name: 'Ributed',
      });
      sessionKey = signedIn.session_key;
      await pollUntil(
        'the signup credits',
        () => api<{ credits: number; credits_pending?: boolean }>('/auth/me'),
        (me) => me.credits === SIGNUP_CREDITS && !me.credits_pending,
      );
      const photo = (await readFile(PHOTO)).toString('base64');
      generationUuid = (await api<{ generation_uuid: string }>('/image-gen/category', { image: photo }))
        .generation_uuid;
      await api('/imageGenFromId', { id: generationUuid, numGenerates: 1 });
      const finished = await pollUntil(
        'the creation to finish',
        () =>
          api<{ status: string; images: unknown[]; gen_error: string | null }>(`/image-gen/status/${generationUuid}`),
        (status) => status.status === 'completed' || status.status === 'failed',
        { timeoutMs: 240_000, intervalMs: 500 },
      );
      expect(finished).toMatchObject({ status: 'completed', gen_error: null });
      expect(finished.images).toHaveLength(1);
      expect((await api<{ credits: number }>('/auth/me')).credits).toBe(SIGNUP_CREDITS - 1);
    });

    test('the creation is one trace: gateway → generation → billing, and generation → bus → render worker', async () => {
      // OTLP span kinds: 2 SERVER, 4 PRODUCER, 5 CONSUMER. Every process exports its spans in batches, each in its
      // own time, so the test waits until the trace has reached the receiver from all of them.
      const start = await pollUntil(
        'the gateway span of POST /imageGenFromId',
        async () =>
          receiver.spans.find(
            (span) =>
              span.service === 'gateway' && span.kind === 2 && span.attributes['url.path'] === '/imageGenFromId',
          ),
        (span) => span !== undefined,
        { timeoutMs: 60_000, intervalMs: 250 },
      );
      const inTrace = () => receiver.spans.filter((span) => span.traceId === start!.traceId);
      const byId = new Map<string, ReceivedSpan>();
      /** The services a span's parents pass through, itself first, up to the root (consecutive repeats merged). */
      const servicesUp = (span: ReceivedSpan | undefined): string[] => {
        const chain: string[] = [];
        for (let current = span; current; current = byId.get(current.parentSpanId)) {
          if (chain.at(-1) !== current.service) chain.push(current.service);
        }
        return chain;
      };
      const chains = async () => {
        for (const span of inTrace()) byId.set(span.spanId, span);
        return {
          billing: servicesUp(inTrace().find((span) => span.service === 'billing' && span.kind === 2)),
          worker: servicesUp(inTrace().find((span) => span.service === 'generation-worker' && span.kind === 5)),
          // One root: the gateway's SERVER span of the request.
          roots: inTrace()
            .filter((span) => !byId.has(span.parentSpanId))
            .map((span) => span.spanId),
        };
      };
      const expected = {
        billing: ['billing', 'generation', 'gateway'],
        worker: ['generation-worker', 'generation', 'gateway'],
        roots: [start!.spanId],
      };
      const found = await pollUntil(
        'the billing and render worker spans, with their parents up to the gateway, under one root',
        chains,
        (value) => JSON.stringify(value) === JSON.stringify(expected),
        { timeoutMs: 60_000, intervalMs: 250 },
      );
      expect(found).toEqual(expected);

      const worker = inTrace().find((span) => span.service === 'generation-worker' && span.kind === 5);
      // Between the worker and the generation API stands the publish on the bus (a PRODUCER span).
      expect(byId.get(worker!.parentSpanId)?.kind).toBe(4);
    });
  });
});
