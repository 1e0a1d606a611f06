import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  devstackConfigSchema,
  startEmbeddedInfrastructure,
  startEmbeddedPlatform,
  type EmbeddedInfrastructure,
} from '@productgen/devstack';
import { createLifecycle, createLogger, loadConfig } from '@productgen/service-kit';
import { listObjectKeys } from '@productgen/test-kit/object-store';
import { freePort, signInWithDevIdentity } from '@productgen/test-kit/platform-process';

/**
 * The whole platform composed in this process exactly as `npm start` composes it (embedded MongoDB, embedded S3,
 * the in-process bus, every service on its own loopback port, the gateway in front), so batch tests go through
 * the gateway to the real bulk, billing and generation services without a build.
 */
export interface InProcessPlatform {
  apiUrl: string;
  /** Each service's own loopback address (behind the gateway), by gateway variable (AUTH_URL, ...). */
  serviceUrls: Record<string, string>;
  infrastructure: EmbeddedInfrastructure;
  signIn(email: string): Promise<{ sessionKey: string; userId: string }>;
  /** Every object key in a bucket. */
  objects(bucket: string): Promise<string[]>;
  stop(): Promise<void>;
}

/**
 * Limits for a platform that renders while it is called. In embedded mode the render worker's compose stages hold
 * the one event loop every service shares for seconds at a time (up to 16 s measured, a minute on a loaded machine):
 * calls wait for it instead of failing. The reservation wait is more than twice the internal one (the configuration
 * refuses less).
 */
export const RENDERING_PLATFORM_LIMITS = {
  SESSION_VERIFY_TIMEOUT_MS: '300000',
  UPSTREAM_TIMEOUT_MS: '300000',
  INTERNAL_TIMEOUT_MS: '300000',
  RESERVING_TIMEOUT_MS: '700000',
} as const;

export async function startInProcessPlatform(env: Record<string, string> = {}): Promise<InProcessPlatform> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'productgen-batch-'));
  const logger = createLogger({ service: 'batch-test', level: 'error' });
  const infrastructure = await startEmbeddedInfrastructure({ dataDir, logger });
  const lifecycle = createLifecycle({ logger, exit: () => undefined });
  const apiPort = await freePort();
  const config = loadConfig(devstackConfigSchema, {
    LOG_LEVEL: 'error',
    NODE_ENV: 'test',
    API_PORT: String(apiPort),
    WEB_PORT: String(await freePort()),
    PUBLIC_HOST: '127.0.0.1',
    DATA_DIR: dataDir,
  });
  const saved = { ...process.env };
  Object.assign(process.env, env);
  let apiUrl: string;
  let serviceUrls: Record<string, string>;
  try {
    ({ apiUrl, serviceUrls } = await startEmbeddedPlatform({
      config,
      infrastructure,
      lifecycle,
      webOrigin: `http://127.0.0.1:${config.WEB_PORT}`,
    }));
  } finally {
    for (const name of Object.keys(env)) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  }
  return {
    apiUrl,
    serviceUrls,
    infrastructure,
    async signIn(email) {
      const [given_name, family_name] = ['Batch', 'Tester'];
      const signedIn = await signInWithDevIdentity(apiUrl, { email, given_name, family_name });
      return { sessionKey: signedIn.session_key, userId: signedIn.user.id };
    },
    async objects(bucket) {
      try {
        return await listObjectKeys(infrastructure.s3, bucket, '');
      } catch (error) {
        if ((error as { code?: string }).code === 'NoSuchBucket') return [];
        throw error;
      }
    },
    async stop() {
      await lifecycle.shutdown('test finished');
      await infrastructure.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface PlainResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  json<T>(): T;
}

/**
 * One HTTP request on a connection of its own. In embedded mode the render worker shares the event loop with
 * every service, so the platform can be busy for seconds; a reused keep-alive connection that the server times
 * out meanwhile would be reset under the next request (a browser silently retries such a request; fetch does not).
 */
export async function plainRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: FormData | { json: unknown } } = {},
): Promise<PlainResponse> {
  const headers: Record<string, string> = { ...options.headers };
  let payload: Buffer | undefined;
  if (options.body && 'json' in options.body) {
    payload = Buffer.from(JSON.stringify(options.body.json));
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(payload.length);
  } else if (options.body) {
    const encoded = new Response(options.body);
    headers['content-type'] = encoded.headers.get('content-type') ?? 'multipart/form-data';
    payload = Buffer.from(await encoded.arrayBuffer());
    headers['content-length'] = String(payload.length);
  }
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: options.method ?? 'GET', headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body,
          json: <T>() => JSON.parse(body.toString('utf8')) as T,
        });
      });
    });
    request.on('error', reject);
    request.end(payload);
  });
}

/** A GET, or the POST of a form when one is given, to the API at `apiUrl` as the user of `sessionKey`. */
export function callAs(sessionKey: string, apiUrl: string, pathname: string, body?: FormData): Promise<PlainResponse> {
  return plainRequest(`${apiUrl}${pathname}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'X-Session-Key': sessionKey },
    body,
  });
}

/** The credits /auth/me shows the user of `sessionKey`. */
export async function creditsOf(sessionKey: string, apiUrl: string): Promise<number> {
  return (await callAs(sessionKey, apiUrl, '/auth/me')).json<{ credits: number }>().credits;
}
