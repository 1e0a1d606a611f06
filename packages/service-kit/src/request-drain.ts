import type { IncomingMessage, ServerResponse } from 'node:http';

export interface DrainLimits {
  /** Bytes read and thrown away at most; a client sending more is cut off. */
  maxBytes: number;
  /** How long the rest of the body may take to arrive. */
  timeoutMs: number;
}

/** Default time a refused upload's remaining bytes may take to arrive. */
export const DEFAULT_DRAIN_TIMEOUT_MS = 30_000;

/**
 * Reads and discards the rest of a request body the server has decided to refuse, up to a bound, and marks the
 * answer `Connection: close`. Resolves true once the body has ended (the refusal can then be answered and the
 * connection closed cleanly), false when the bound or the time ran out or the client went away.
 *
 * Why: a server that writes its answer and closes while the client is still sending leaves unread bytes in its
 * socket, so the kernel resets the connection; clients that send the whole body before reading the answer (Node's
 * fetch, most HTTP libraries) then see "fetch failed" instead of the 4xx and its message. Node closes a
 * `Connection: close` socket as soon as the answer is written, so the body is drained before the answer is sent.
 */
export function drainRequestBody(req: IncomingMessage, res: ServerResponse, limits: DrainLimits): Promise<boolean> {
  if (!res.headersSent) res.setHeader('Connection', 'close');
  if (req.readableEnded || req.complete) return Promise.resolve(true);
  return new Promise<boolean>((resolve) => {
    let bytes = 0;
    const finish = (drained: boolean) => {
      clearTimeout(timer);
      req.off('data', count);
      req.off('end', ended);
      req.off('close', closed);
      resolve(drained);
    };
    const count = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > limits.maxBytes) finish(false);
    };
    const ended = () => finish(true);
    const closed = () => finish(req.complete);
    const timer = setTimeout(() => finish(false), limits.timeoutMs);
    timer.unref();
    req.on('data', count);
    req.once('end', ended);
    req.once('close', closed);
    req.resume();
  });
}
