import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@productgen/service-kit';
import type { NextFunction, RequestHandler, Response } from 'express';
import type { IncrementResponse, Options, Store } from 'express-rate-limit';

export interface WindowLimitOptions {
  /** Names the limit in the RateLimit headers. */
  name: string;
  limit: number;
  windowMs: number;
  /** Counts the hits of a key in its window (express-rate-limit's MemoryStore, SharedHitBlocks). */
  store: Store;
  key: (req: IncomingMessage, res: ServerResponse) => string;
  /** Requests the limit does not count. */
  skip: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** The error a request over the limit is answered with; `resetTime` is when its key's window ends. */
  refusal: (resetTime: Date | undefined) => unknown;
  logger: Logger;
}

/** Partition keys (`pk` of RateLimit-Policy) already hashed; emptied when it reaches this many. */
const MAX_CACHED_PARTITION_KEYS = 10_000;

/**
 * A fixed-window limit, answered as express-rate-limit 8 answers with `standardHeaders: 'draft-8'`: RateLimit and
 * RateLimit-Policy on every counted request (the key's partition as a hash, never the key), Retry-After and the
 * refusal once over the limit, and the request let through when the store cannot answer. It replaces that
 * middleware on the gateway's hot path: its five awaits, per-request debug arguments (computing req.ip) and a
 * SHA-256 of the key per request made the three limits about a fifth of the gateway's CPU per request. Here a store
 * that answers synchronously (SharedHitBlocks within a block) costs no microtask, and a key is hashed once.
 */
export function windowLimit(options: WindowLimitOptions): RequestHandler {
  const { name, limit, windowMs, store, logger } = options;
  const windowSeconds = Math.ceil(windowMs / 1000);
  // The store only reads windowMs of the middleware's options (MemoryStore: its window and cleanup timer).
  void store.init?.({ windowMs } as Options);
  const partitionKeys = new Map<string, string>();
  const partitionKey = (key: string): string => {
    let hashed = partitionKeys.get(key);
    if (hashed === undefined) {
      const hex = createHash('sha256').update(key).digest('hex').slice(0, 12);
      hashed = Buffer.from(hex).toString('base64');
      if (partitionKeys.size >= MAX_CACHED_PARTITION_KEYS) partitionKeys.clear();
      partitionKeys.set(key, hashed);
    }
    return hashed;
  };

  const answer = (res: Response, next: NextFunction, key: string, counted: IncrementResponse) => {
    const { totalHits, resetTime } = counted;
    const resetSeconds = resetTime ? Math.max(0, Math.ceil((resetTime.getTime() - Date.now()) / 1000)) : windowSeconds;
    if (!res.headersSent) {
      res.append('RateLimit', `"${name}"; r=${Math.max(limit - totalHits, 0)}; t=${resetSeconds}`);
      res.append('RateLimit-Policy', `"${name}"; q=${limit}; w=${windowSeconds}; pk=:${partitionKey(key)}:`);
    }
    if (totalHits <= limit) return next();
    if (!res.headersSent) res.setHeader('Retry-After', String(resetSeconds));
    next(options.refusal(resetTime));
  };
  const passOnStoreError = (next: NextFunction, error: unknown) => {
    // The limits protect the services; refusing everyone while the store is away would be an outage of its own.
    logger.error({ err: error, limit: name }, 'rate limit store failed; request let through uncounted');
    next();
  };

  return (req, res, next) => {
    let key: string;
    let counted: IncrementResponse | Promise<IncrementResponse>;
    try {
      if (options.skip(req, res)) return next();
      key = options.key(req, res);
    } catch (error) {
      return next(error);
    }
    try {
      counted = store.increment(key);
    } catch (error) {
      return passOnStoreError(next, error);
    }
    if (counted instanceof Promise) {
      counted
        .then(
          (result) => answer(res, next, key, result),
          (error: unknown) => passOnStoreError(next, error),
        )
        .catch(next);
    } else answer(res, next, key, counted);
  };
}
