import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { drainRequestBody } from '../src';

// A server refusing a body before reading it: drainRequestBody reads the rest (up to its bound) before the refusal
// is written, so a client that sends everything before reading (Node's fetch) gets the answer.

const MIB = 1024 * 1024;
const servers: http.Server[] = [];
const outcomes: boolean[] = [];

async function refusingServer(maxBytes: number): Promise<string> {
  const server = http.createServer((req, res) => {
    void drainRequestBody(req, res, { maxBytes, timeoutMs: 10_000 }).then((drained) => {
      outcomes.push(drained);
      res.statusCode = 413;
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ error: 'too large' }));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

beforeEach(() => {
  outcomes.length = 0;
});

afterAll(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

test('a refused body within the bound is read to its end, then answered with Connection: close', async () => {
  const url = await refusingServer(64 * MIB);
  const response = await fetch(url, { method: 'POST', body: new Uint8Array(16 * MIB) });
  expect(response.status).toBe(413);
  expect(response.headers.get('connection')).toBe('close');
  expect(await response.json()).toEqual({ error: 'too large' });
  expect(outcomes).toEqual([true]);
});

test('a body beyond the bound is not read to its end', async () => {
  const url = await refusingServer(MIB);
  // The client may or may not read the answer before the connection closes; the server must stop draining.
  await fetch(url, { method: 'POST', body: new Uint8Array(16 * MIB) }).catch(() => undefined);
  expect(outcomes).toEqual([false]);
});
