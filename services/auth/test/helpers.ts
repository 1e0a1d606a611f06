import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Connection } from 'mongoose';
import { createLogger } from '@productgen/service-kit';
import { startTestService, type TestService, type TestServiceOptions } from '@productgen/test-kit/auth-service';
import { MongoFixture } from '@productgen/test-kit/mongo-fixture';

// What auth's tests share with the other workspaces' tests lives in test-kit (the real auth service among it).
export { collectMessages, TestClock, waitFor } from '@productgen/test-kit';
export { MongoFixture } from '@productgen/test-kit/mongo-fixture';
export {
  devCredential,
  signInDev,
  startTestService,
  TEST_CLIENT_ID,
  type TestService,
  type TestServiceOptions,
} from '@productgen/test-kit/auth-service';

export const silentLogger = createLogger({ service: 'auth-test', level: 'silent' });
export const DAY_MS = 24 * 60 * 60 * 1000;

/** A test file's auth service on its own embedded MongoDB; both are set before the file's first test runs. */
export interface AuthSuite {
  mongo: MongoFixture;
  auth: TestService;
}

/** Starts MongoDB and the real auth service (with `options`) before a file's tests, and stops both after them. */
export function authSuite(options: TestServiceOptions = {}): AuthSuite {
  const suite = { mongo: new MongoFixture() } as AuthSuite;
  beforeAll(async () => {
    await suite.mongo.start();
    suite.auth = await startTestService(suite.mongo, options);
  });
  afterAll(async () => {
    await suite.auth?.close();
    await suite.mongo.stop();
  });
  return suite;
}

/** A website reader that answers every address with `html` and records the addresses, instead of going online. */
export function recordingSiteFetcher(html: string): {
  fetchedSites: string[];
  siteFetcher: NonNullable<TestServiceOptions['siteFetcher']>;
} {
  const fetchedSites: string[] = [];
  return {
    fetchedSites,
    siteFetcher: async (url) => {
      fetchedSites.push(url);
      return { url, html };
    },
  };
}

export function sessionCount(connection: Connection): Promise<number> {
  return connection.collection('sessions').countDocuments();
}

export interface RecordingServer {
  url: string;
  port: number;
  requests: http.IncomingMessage[];
  close(): Promise<void>;
}

/** A local HTTP server that records every request it receives. */
export async function startRecordingServer(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
  host = '127.0.0.1',
): Promise<RecordingServer> {
  const requests: http.IncomingMessage[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
