import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** HTTP servers a test starts on 127.0.0.1 (a free port each) and closes together at the end. */
export class LoopbackServers {
  private readonly servers: http.Server[] = [];

  /** Serves `handler` on a free loopback port; the server's origin, e.g. `http://127.0.0.1:40123`. */
  async listen(handler: http.RequestListener): Promise<string> {
    const server = http.createServer(handler);
    this.servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** Closes every server started (waiting for their connections to end). */
  async close(): Promise<void> {
    const closing = this.servers.splice(0);
    await Promise.all(closing.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}
