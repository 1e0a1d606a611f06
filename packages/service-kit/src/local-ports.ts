import { readFileSync } from 'node:fs';
import net from 'node:net';

/**
 * Loopback ports for launchers and tests that must name a port before the process that listens on it starts.
 *
 * The kernel's "any free port" (listen on 0) and every outgoing connection draw from the ephemeral range, so a
 * port learnt that way and closed again can be handed to another process before its owner binds it (CI saw a
 * service's health check answered by another platform's process on its port). These ports are drawn at random
 * from below that range instead, where the kernel never hands out ports itself, and a reservation keeps the port
 * bound until the moment its owner is about to start.
 */
export interface PortReservation {
  port: number;
  /** Frees the port for its owner: call it right before starting the process that listens on it. */
  release(): Promise<void>;
}

const FALLBACK_EPHEMERAL_START = 32768; // Linux's default, when /proc does not say
const LOWEST_PORT = 20000; // clear of well-known service ports (databases, brokers) below it
const MAX_TRIES = 200;

function ephemeralRangeStart(): number {
  try {
    const start = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(start) && start > LOWEST_PORT + 1000 ? start : FALLBACK_EPHEMERAL_START;
  } catch {
    return FALLBACK_EPHEMERAL_START;
  }
}

function tryListen(port: number, host: string): Promise<net.Server | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(undefined));
    // exclusive: in a cluster worker the port is not shared with the primary's handle
    server.listen({ port, host, exclusive: true }, () => resolve(server));
  });
}

/**
 * Holds a free loopback port until `release`: `preferred` when it is free (a published port such as 3000), else one
 * drawn from below the ephemeral range.
 */
export async function reservePort(options: { preferred?: number; host?: string } = {}): Promise<PortReservation> {
  const { preferred, host = '127.0.0.1' } = options;
  const end = ephemeralRangeStart();
  for (let attempt = 0; attempt < MAX_TRIES; attempt += 1) {
    const port = attempt === 0 && preferred ? preferred : LOWEST_PORT + Math.floor(Math.random() * (end - LOWEST_PORT));
    const server = await tryListen(port, host);
    if (server) {
      let released: Promise<void> | undefined;
      return {
        port,
        release: () => (released ??= new Promise<void>((resolve) => server.close(() => resolve()))),
      };
    }
  }
  throw new Error(`no free loopback port found in ${LOWEST_PORT}-${end - 1} after ${MAX_TRIES} tries`);
}

/** A free loopback port below the ephemeral range, released at once: for an owner that starts right away. */
export async function freePort(): Promise<number> {
  const reservation = await reservePort();
  await reservation.release();
  return reservation.port;
}
