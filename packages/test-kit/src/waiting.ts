import { setTimeout as delay } from 'node:timers/promises';
import type { BusMessage, MessageBus } from '@productgen/bus';

/**
 * Reads a value again and again until `isDone` accepts it, and resolves with that value. Meant for state another
 * process changes, where there is no event to await across the process boundary: the interval is short and the
 * limit generous, so a loaded machine makes it slower, never flaky. A timeout names what was awaited and the last
 * value read, so it explains itself.
 */
export async function pollUntil<T>(
  what: string,
  read: () => Promise<T>,
  isDone: (value: T) => boolean,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const intervalMs = options.intervalMs ?? 200;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (isDone(value)) return value;
    if (Date.now() >= deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last value: ${JSON.stringify(value)}`);
    }
    await delay(intervalMs);
  }
}

/** Polls `check` until it returns true (state reached through a background consumer), or fails after the timeout. */
export async function waitFor(
  check: () => Promise<boolean> | boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  await pollUntil(what, async () => check(), Boolean, { timeoutMs, intervalMs: 20 });
}

/** Collects the messages of some topics on a queue of its own (the array fills as they arrive). */
export async function collectMessages(bus: MessageBus, queue: string, topics: string[]): Promise<BusMessage[]> {
  const received: BusMessage[] = [];
  await bus.subscribe(queue, topics, async (message) => {
    received.push(message);
  });
  return received;
}
