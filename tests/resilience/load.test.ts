import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { loadRun } from './load';

// The load generator itself, against a local server that only records when each request arrived and whose session
// it carries: a paced run must look like browsers opened at different moments, not one burst a second.
describe('loadRun', () => {
  const arrivals: Array<{ at: number; key: string }> = [];
  const server = http.createServer((request, response) => {
    arrivals.push({ at: performance.now(), key: String(request.headers['x-session-key']) });
    response.end('{}');
  });
  let url: string;

  beforeAll(async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/auth/me`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  });
  beforeEach(() => arrivals.splice(0));

  const keys = Array.from({ length: 40 }, (_, index) => `session-${index}`);

  test('at a pace, every session sends its own key about once a second, and the sessions are not in step', async () => {
    const figures = await loadRun({ target: 'paced', url, sessionKeys: keys, seconds: 2, pace: 1 });

    // Over 2 s, at the start and then once a second: 2 or 3 each (one more if the last tick meets the end).
    const sent = new Map<string, number>();
    for (const { key } of arrivals) sent.set(key, (sent.get(key) ?? 0) + 1);
    expect([...sent.keys()].sort()).toEqual([...keys].sort());
    for (const count of sent.values()) expect(count >= 2 && count <= 4).toBe(true);
    expect(figures).toMatchObject({ sessions: keys.length, pace: 1, errors: 0, non2xx: 0 });
    // Answered within the run: at least the first two of each session (a request at the very end may go unanswered).
    expect(figures.requestsPerSecond).toBeGreaterThanOrEqual(keys.length);
    expect(figures.requestsPerSecond).toBeLessThanOrEqual(arrivals.length / 2);
    // In step, all 40 would arrive within a few milliseconds of each other once a second. Spread over the second,
    // a 20-ms window holds about one; half of them in one window would take a stall of the whole test process.
    const times = arrivals.map((arrival) => arrival.at).sort((a, b) => a - b);
    let busiestWindow = 0;
    for (let first = 0, last = 0; last < times.length; last++) {
      while (times[last]! - times[first]! > 20) first++;
      busiestWindow = Math.max(busiestWindow, last - first + 1);
    }
    expect(busiestWindow).toBeLessThan(keys.length / 2);
  });

  test('as fast as answered, the sessions send their keys on one run of as many connections', async () => {
    const figures = await loadRun({ target: 'closed loop', url, sessionKeys: keys, seconds: 1 });

    expect(new Set(arrivals.map((arrival) => arrival.key))).toEqual(new Set(keys));
    expect(figures).toMatchObject({ sessions: keys.length, errors: 0, non2xx: 0 });
    expect(figures.pace).toBeUndefined();
    expect(figures.requestsPerSecond).toBeGreaterThan(keys.length * 3);
  });
});
