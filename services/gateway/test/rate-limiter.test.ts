import { AppError, errorHandler } from '@productgen/service-kit';
import express, { type RequestHandler } from 'express';
import { MemoryStore, rateLimit, type IncrementResponse, type Store } from 'express-rate-limit';
import request from 'supertest';
import { windowLimit } from '../src/rate-limiter';
import { silentLogger } from './helpers';

const LIMIT = 3;
const WINDOW_MS = 60_000;
const refusal = () => AppError.tooManyRequests('slow down');

function appWith(limiter: RequestHandler) {
  const app = express();
  app.use(limiter);
  app.get('/', (_req, res) => void res.json({ ok: true }));
  app.use(errorHandler());
  return app;
}

const LIMIT_HEADERS = ['ratelimit', 'ratelimit-policy', 'retry-after'] as const;

describe('windowLimit', () => {
  it("answers as express-rate-limit's draft-8 middleware does, request by request", async () => {
    const stores = [new MemoryStore(), new MemoryStore()];
    const common = { limit: LIMIT, windowMs: WINDOW_MS, keyGenerator: () => 'client-1' };
    const reference = appWith(
      rateLimit({
        ...common,
        store: stores[0],
        identifier: 'ip',
        standardHeaders: 'draft-8',
        legacyHeaders: false,
        handler: (_req, _res, next) => next(refusal()),
      }),
    );
    const ours = appWith(
      windowLimit({
        name: 'ip',
        limit: LIMIT,
        windowMs: WINDOW_MS,
        store: stores[1]!,
        key: () => 'client-1',
        skip: () => false,
        refusal,
        logger: silentLogger,
      }),
    );
    try {
      for (let attempt = 1; attempt <= LIMIT + 2; attempt += 1) {
        const [expected, answer] = [await request(reference).get('/'), await request(ours).get('/')];
        expect(answer.status).toBe(attempt <= LIMIT ? 200 : 429);
        expect([answer.status, ...LIMIT_HEADERS.map((name) => answer.headers[name])]).toEqual([
          expected.status,
          ...LIMIT_HEADERS.map((name) => expected.headers[name]),
        ]);
      }
    } finally {
      for (const store of stores) store.shutdown();
    }
  });

  it('counts with a store that answers at once, lets a request through when the store fails, skips as told', async () => {
    let hits = 0;
    let failing = false;
    const store = {
      increment: (): IncrementResponse => {
        if (failing) throw new Error('store away');
        hits += 1;
        return { totalHits: hits, resetTime: new Date(Date.now() + WINDOW_MS) };
      },
      decrement: () => undefined,
      resetKey: () => undefined,
    } satisfies Store;
    const app = appWith(
      windowLimit({
        name: 'session',
        limit: 1,
        windowMs: WINDOW_MS,
        store,
        key: () => 'session-1',
        skip: (req) => req.headers['x-skip'] === 'yes',
        refusal,
        logger: silentLogger,
      }),
    );
    expect((await request(app).get('/')).headers['ratelimit']).toBe('"session"; r=0; t=60');
    const refused = await request(app).get('/');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    const skipped = await request(app).get('/').set('x-skip', 'yes');
    expect([skipped.status, skipped.headers['ratelimit']]).toEqual([200, undefined]);
    failing = true;
    expect((await request(app).get('/')).status).toBe(200);
    expect(hits).toBe(2);
  });
});
