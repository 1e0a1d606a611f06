import net from 'node:net';
import { readFileSync } from 'node:fs';
import { freePort, reservePort } from '../src/local-ports';

function listen(port: number): Promise<net.Server | NodeJS.ErrnoException> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => resolve(server));
  });
}

function close(server: net.Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

const ephemeralStart = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);

describe('local ports for processes started later', () => {
  test('a reservation keeps its port bound until it is released, then the owner can bind it', async () => {
    const reservation = await reservePort();
    const whileHeld = await listen(reservation.port);
    expect(whileHeld).toMatchObject({ code: 'EADDRINUSE' }); // Node's own Error class is not jest's realm's

    await reservation.release();
    await reservation.release(); // a second release is harmless
    const owner = await listen(reservation.port);
    expect(owner).toBeInstanceOf(net.Server);
    await close(owner as net.Server);
  });

  test('ports come from below the range the kernel hands out by itself', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20000);
      expect(port).toBeLessThan(ephemeralStart);
    }
  });

  test('a preferred port is taken when free, and another when it is not', async () => {
    const preferred = await freePort();
    const reservation = await reservePort({ preferred });
    expect(reservation.port).toBe(preferred);

    const other = await reservePort({ preferred });
    expect(other.port).not.toBe(preferred);
    await Promise.all([reservation.release(), other.release()]);
  });
});
