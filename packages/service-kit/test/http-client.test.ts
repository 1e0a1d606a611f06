import { z } from 'zod';
import { AppError, createHttpApp, createInternalHttpClient, type InternalHttpClient } from '@productgen/service-kit';
import { listen, memoryLogger, type TestServer } from './helpers';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';

describe('createInternalHttpClient', () => {
  let callee: TestServer;
  let caller: TestServer;
  let client: InternalHttpClient;
  let releaseSlow: () => void = () => undefined;
  const slowReleased = new Promise<void>((resolve) => (releaseSlow = resolve));

  beforeAll(async () => {
    const { logger } = memoryLogger('client-test');
    const calleeApp = createHttpApp({ name: 'callee', logger });
    calleeApp.get('/echo-headers', (req, res) => {
      res.json({ traceparent: req.headers.traceparent ?? null, requestId: req.headers['x-request-id'] ?? null });
    });
    calleeApp.post('/presets', (req, res) => {
      res.status(201).json({ created: req.body as unknown, query: req.query });
    });
    calleeApp.get('/conflict', () => {
      throw AppError.conflict('Preset name already used');
    });
    calleeApp.get('/crash', () => {
      throw new Error('boom');
    });
    calleeApp.get('/html-error', (_req, res) => {
      res.status(502).type('html').send('<h1>proxy error</h1>');
    });
    calleeApp.get('/slow', async (_req, res) => {
      await slowReleased;
      res.json({});
    });
    calleeApp.delete('/things/:id', (_req, res) => {
      res.status(204).end();
    });
    calleeApp.finalize();
    callee = await listen(calleeApp);
    client = createInternalHttpClient({ baseUrl: callee.url, target: 'callee' });

    const callerApp = createHttpApp({ name: 'caller', logger });
    callerApp.get('/relay', async (_req, res) => {
      res.json(await client.get('/echo-headers'));
    });
    callerApp.finalize();
    caller = await listen(callerApp);
  });

  afterAll(async () => {
    releaseSlow();
    await caller.close();
    await callee.close();
  });

  it('carries the trace context and the request id of the request being served', async () => {
    const response = await fetch(`${caller.url}/relay`, {
      headers: { traceparent: `00-${TRACE_ID}-b7ad6b7169203331-01`, 'x-request-id': 'relay-7' },
    });
    expect(response.status).toBe(200);
    const seen = (await response.json()) as { traceparent: string; requestId: string };
    expect(seen.requestId).toBe('relay-7');
    expect(seen.traceparent).toMatch(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`));
  });

  it('sends JSON bodies and query parameters, and validates answers with a schema', async () => {
    const answer = await client.post('/presets', {
      body: { name: 'white' },
      query: { category: 'mugs', page: 2, skipped: undefined },
      schema: z.object({ created: z.object({ name: z.string() }), query: z.record(z.string(), z.string()) }),
    });
    expect(answer).toEqual({ created: { name: 'white' }, query: { category: 'mugs', page: '2' } });
    await expect(client.delete('/things/1')).resolves.toBeUndefined();
  });

  it('turns {code, error} answers back into the same AppError', async () => {
    await expect(client.get('/conflict')).rejects.toMatchObject({
      constructor: AppError,
      status: 409,
      message: 'Preset name already used',
    });
    await expect(client.get('/crash')).rejects.toMatchObject({ status: 500, message: 'Internal Server Error' });
    await expect(client.get('/nowhere')).rejects.toMatchObject({ status: 404, message: 'Not Found' });
  });

  it('maps broken answers, unreachable callees and timeouts to 502, 503 and 504', async () => {
    await expect(client.get('/html-error')).rejects.toMatchObject({ status: 502, message: 'Bad Gateway' });
    await expect(client.get('/echo-headers', { schema: z.object({ other: z.string() }) })).rejects.toMatchObject({
      status: 502,
    });
    await expect(client.get('/slow', { timeoutMs: 100 })).rejects.toMatchObject({ status: 504 });

    const closed = await listen((_req, res) => res.end());
    await closed.close();
    const unreachable = createInternalHttpClient({ baseUrl: closed.url });
    await expect(unreachable.get('/anything')).rejects.toMatchObject({ status: 503, message: 'Service Unavailable' });
  });
});
