import type { IncomingHttpHeaders } from 'node:http';
import express, { type Express } from 'express';
import { errorHandler } from '@productgen/service-kit';
import { LoopbackServers } from './loopback-servers';

/** One request as a stand-in service received it. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A small real HTTP service on loopback standing in for another service. It records what arrives; `configure` adds
 * routes, and anything else is echoed back as JSON (`owner`, `method`, `url`, `userId`).
 */
export interface FixtureService {
  name: string;
  url: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

export async function startFixture(
  name: string,
  configure: (app: Express) => void = () => undefined,
): Promise<FixtureService> {
  const received: ReceivedRequest[] = [];
  const app = express();
  app.use(express.raw({ type: () => true, limit: '64mb' }), (req, _res, next) => {
    received.push({
      method: req.method,
      url: req.originalUrl,
      headers: req.headers,
      body: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
    });
    next();
  });
  configure(app);
  app.use((req, res) => {
    res.json({
      owner: name,
      method: req.method,
      url: req.originalUrl,
      userId: req.headers['x-user-id'] ?? null,
    });
  });
  app.use(errorHandler());
  const servers = new LoopbackServers();
  return { name, url: await servers.listen(app), received, close: () => servers.close() };
}
