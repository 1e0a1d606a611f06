import { z } from 'zod';
import { AppError, createHttpApp, createRouter, parseQuery, validate } from '@productgen/service-kit';
import { listen, memoryLogger, type TestServer } from './helpers';

const INCOMING_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const INCOMING_TRACEPARENT = `00-${INCOMING_TRACE_ID}-00f067aa0ba902b7-01`;

describe('createHttpApp', () => {
  let server: TestServer;
  let logs: ReturnType<typeof memoryLogger>;
  let mongoUp: boolean;

  beforeAll(async () => {
    logs = memoryLogger('http-test');
    const app = createHttpApp({
      name: 'http-test',
      logger: logs.logger,
      bodyLimit: 1024,
      readinessTimeoutMs: 200,
      readiness: {
        mongo: async () => {
          if (!mongoUp) throw new Error('connect ECONNREFUSED 10.0.0.7:27017');
        },
        s3: async () => undefined,
        slow: async () => (mongoUp ? undefined : new Promise<void>(() => undefined)),
      },
    });

    const items = createRouter();
    items.get('/', (req, res) => {
      const { page } = parseQuery(z.object({ page: z.coerce.number().int().min(1) }), req.query);
      res.json({ page });
    });
    items.post('/', validate(z.object({ name: z.string().min(1), qty: z.number().int() })), (req, res) => {
      res.status(201).json(req.body);
    });
    items.delete('/:id', (_req, res) => {
      res.status(204).end();
    });
    app.use('/items', items);
    app.get('/conflict', () => {
      throw AppError.conflict('Preset name already used');
    });
    app.get('/crash', async () => {
      throw new Error('secret internal detail: mongodb://admin:pw@db');
    });
    app.get('/log', (req, res) => {
      req.log.info('inside handler');
      res.json({ ok: true });
    });
    app.finalize();
    server = await listen(app);
  });

  afterAll(async () => {
    await server.close();
  });

  beforeEach(() => {
    mongoUp = true;
  });

  it('answers 404 {code, error} for an unknown path', async () => {
    const response = await fetch(`${server.url}/nowhere`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toEqual({ code: 404, error: 'Not Found' });
  });

  it('answers 405 with Allow for a known path and a wrong method, in routers and on the app', async () => {
    const put = await fetch(`${server.url}/items`, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(await put.json()).toEqual({ code: 405, error: 'Method Not Allowed' });

    const getOne = await fetch(`${server.url}/items/42`);
    expect(getOne.status).toBe(405);
    expect(getOne.headers.get('allow')).toBe('DELETE');

    const postHealth = await fetch(`${server.url}/healthz`, { method: 'POST' });
    expect(postHealth.status).toBe(405);
    expect(postHealth.headers.get('allow')).toBe('GET, HEAD');

    const options = await fetch(`${server.url}/items`, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, HEAD, POST');
  });

  it('still routes the allowed methods', async () => {
    expect((await fetch(`${server.url}/items/42`, { method: 'DELETE' })).status).toBe(204);
    const created = await fetch(`${server.url}/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'mug', qty: 2, extra: 'stripped' }),
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ name: 'mug', qty: 2 });
  });

  it('answers 400 for malformed JSON', async () => {
    const response = await fetch(`${server.url}/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name": "mug",',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ code: 400, error: 'Bad Request: malformed JSON body' });
  });

  it('answers 400 naming the offending fields for invalid input', async () => {
    const body = await fetch(`${server.url}/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: '', qty: 'two' }),
    });
    expect(body.status).toBe(400);
    const answer = (await body.json()) as { code: number; error: string };
    expect(answer.code).toBe(400);
    expect(answer.error).toMatch(/^Invalid request body: name: .+; qty: .*expected number/);

    const query = await fetch(`${server.url}/items?page=0`);
    expect(query.status).toBe(400);
    expect(((await query.json()) as { error: string }).error).toMatch(/^Invalid request query: page: /);

    const missing = await fetch(`${server.url}/items`, { method: 'POST' });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: string }).error).toContain('expected a JSON body');
  });

  it('answers 413 for a body over the limit', async () => {
    const response = await fetch(`${server.url}/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(2048), qty: 1 }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ code: 413, error: 'Payload Too Large: request body exceeds 1024 bytes' });
  });

  it('passes an AppError through and hides unknown errors behind a logged 500', async () => {
    const conflict = await fetch(`${server.url}/conflict`);
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toEqual({ code: 409, error: 'Preset name already used' });

    const crash = await fetch(`${server.url}/crash`, { headers: { 'x-request-id': 'crash-1' } });
    expect(crash.status).toBe(500);
    const text = await crash.text();
    expect(JSON.parse(text)).toEqual({ code: 500, error: 'Internal Server Error' });
    expect(text).not.toContain('secret');

    const logged = logs.lines().find((line) => (line.req as { id?: string } | undefined)?.id === 'crash-1');
    expect(logged).toMatchObject({ level: 'error', res: { statusCode: 500 } });
    expect((logged?.err as { stack?: string }).stack).toContain('secret internal detail');
  });

  it('GET /healthz answers ok', async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('GET /readyz reports every dependency, 200 when all answer and 503 naming the ones that fail', async () => {
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { mongo: 'ok', s3: 'ok', slow: 'ok' } });

    mongoUp = false;
    const notReady = await fetch(`${server.url}/readyz`);
    expect(notReady.status).toBe(503);
    const text = await notReady.text();
    expect(JSON.parse(text)).toEqual({ status: 'unavailable', checks: { mongo: 'failed', s3: 'ok', slow: 'timeout' } });
    expect(text).not.toContain('10.0.0.7');
  });

  it('echoes a sane X-Request-Id and replaces an unsafe one', async () => {
    const kept = await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': 'abc-123.XYZ' } });
    expect(kept.headers.get('x-request-id')).toBe('abc-123.XYZ');

    const replaced = await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': 'a b<script>' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

    const generated = await fetch(`${server.url}/healthz`);
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('continues an incoming traceparent: same trace id in the response header and in log lines', async () => {
    const response = await fetch(`${server.url}/log`, {
      headers: { traceparent: INCOMING_TRACEPARENT, 'x-request-id': 'traced-1' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('traceparent')).toMatch(new RegExp(`^00-${INCOMING_TRACE_ID}-[0-9a-f]{16}-0[01]$`));

    const requestLines = logs
      .lines()
      .filter((line) => line.req_id === 'traced-1' || (line.req as { id?: string } | undefined)?.id === 'traced-1');
    const handlerLine = requestLines.find((line) => line.msg === 'inside handler');
    expect(handlerLine).toMatchObject({ trace_id: INCOMING_TRACE_ID, service: 'http-test' });
    const completionLine = requestLines.find((line) => line.msg === 'request completed');
    expect(completionLine).toMatchObject({ trace_id: INCOMING_TRACE_ID });
  });

  it('sends no X-Powered-By header', async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.headers.get('x-powered-by')).toBeNull();
  });
});
