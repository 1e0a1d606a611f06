import express from 'express';
import type { Level } from 'pino';
import { AppError, errorHandler, logRequests, traceRequests } from '@productgen/service-kit';
import { redactRequestUrls } from '../src/url-redaction';
import { listen, memoryLogger, type TestServer } from './helpers';

/** An app with the request log (at `level`) in front of a few answers; `serialised` counts request serialisations. */
async function serve(level: Level) {
  const logs = memoryLogger('request-log-test', level);
  let serialised = 0;
  const app = express();
  app.use(traceRequests());
  app.use(
    logRequests({
      logger: logs.logger,
      ignore: (req) => req.url === '/healthz',
      serializeRequest: (req) => {
        serialised += 1;
        return redactRequestUrls(req);
      },
    }),
  );
  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/ok', (_req, res) => void res.json({ ok: true }));
  app.get('/said', (req, res) => {
    req.log.warn({ detail: 1 }, 'said inside');
    res.json({ ok: true });
  });
  app.get('/missing', () => {
    throw AppError.notFound();
  });
  app.get('/crash', () => {
    throw new Error('broken inside');
  });
  app.use(errorHandler());
  const server = await listen(app);
  return { server, logs, serialised: () => serialised };
}

describe('logRequests', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('writes one line per answer in the form pino-http wrote, at the level of its status', async () => {
    const served = await serve('info');
    server = served.server;
    const get = (path: string, id: string) => fetch(`${served.server.url}${path}`, { headers: { 'x-request-id': id } });
    expect((await get('/ok?session_id=cs_secret&page=2', 'ok-1')).status).toBe(200);
    expect((await get('/missing', 'missing-1')).status).toBe(404);
    expect((await get('/crash', 'crash-1')).status).toBe(500);
    expect((await get('/healthz', 'probe-1')).status).toBe(200);
    await served.server.close();
    server = undefined;

    const lines = served.logs.lines();
    const byId = (id: string) => lines.filter((line) => (line.req as { id?: string } | undefined)?.id === id);
    const [ok] = byId('ok-1');
    expect(Object.keys(ok!)).toEqual(['level', 'time', 'service', 'req', 'res', 'responseTime', 'msg']);
    expect(ok).toMatchObject({
      level: 'info',
      service: 'request-log-test',
      msg: 'request completed',
      req: { id: 'ok-1', method: 'GET', url: '/ok?session_id=redacted&page=2', remoteAddress: '127.0.0.1' },
      res: { statusCode: 200 },
    });
    expect(typeof ok!.responseTime).toBe('number');
    expect(JSON.stringify(lines)).not.toContain('cs_secret');
    expect(byId('missing-1')).toEqual([
      expect.objectContaining({
        level: 'warn',
        msg: 'request completed',
        res: expect.objectContaining({ statusCode: 404 }),
      }),
    ]);
    const crash = byId('crash-1');
    expect(crash).toHaveLength(1);
    expect(crash[0]).toMatchObject({ level: 'error', msg: 'request errored', res: { statusCode: 500 } });
    expect((crash[0]!.err as { stack?: string }).stack).toContain('broken inside');
    expect(byId('probe-1')).toEqual([]);
  });

  it("gives req.log the request's fields, and serialises the request only for a line that is written", async () => {
    const served = await serve('warn');
    server = served.server;
    for (let i = 0; i < 5; i += 1) expect((await fetch(`${served.server.url}/ok`)).status).toBe(200);
    expect(served.serialised()).toBe(0);
    await fetch(`${served.server.url}/said`, { headers: { 'x-request-id': 'said-1' } });
    await fetch(`${served.server.url}/missing`, { headers: { 'x-request-id': 'missing-2' } });
    await served.server.close();
    server = undefined;

    expect(served.serialised()).toBe(2);
    const lines = served.logs.lines();
    expect(lines.map((line) => [line.msg, (line.req as { id?: string }).id])).toEqual([
      ['said inside', 'said-1'],
      ['request completed', 'missing-2'],
    ]);
    expect(lines[0]).toMatchObject({ level: 'warn', detail: 1, req: { url: '/said' } });
  });
});
