import { serviceCallHeaders, TEST_SERVICE_AUTH_SECRET } from '@productgen/test-kit';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedMongo, type EmbeddedMongo } from '@productgen/embedded-mongo';
import { startEmbeddedS3, type EmbeddedS3 } from '@productgen/embedded-s3';
import { connectMongo, createLogger } from '@productgen/service-kit';
import { freePort } from '@productgen/test-kit/platform-process';
import { createThrowawayVhost, type ThrowawayVhost } from './rabbitmq';
import { startServiceProcess, type ServiceProcess } from './service-process';

export const GENERATION_BUCKET = 'productgen-generation';

/**
 * The back end in distributed mode, for fault tests: each service runs as its own process from its build (started
 * by the test, so it can kill and restart them), on a throwaway RabbitMQ virtual host, the embedded MongoDB and the
 * embedded S3 in a temporary folder. `stop` ends every process still running and removes all of it.
 */
export interface DistributedServices {
  urls: { auth: string; billing: string; generation: string };
  mongo: EmbeddedMongo;
  s3: EmbeddedS3;
  vhost: ThrowawayVhost;
  /** Environment of billing and auth (each adds its PORT). */
  sharedEnv: Record<string, string>;
  /** Environment of a generation API or worker process: database, broker, object store, the other services. */
  generationEnv: Record<string, string>;
  /** Starts a process and keeps it for `stop`. */
  start(options: Parameters<typeof startServiceProcess>[0]): Promise<ServiceProcess>;
  startBilling(): Promise<ServiceProcess>;
  startAuth(): Promise<ServiceProcess>;
  stop(): Promise<void>;
}

export async function startDistributedServices(amqpUrl: string, prefix: string): Promise<DistributedServices> {
  const dir = await mkdtemp(path.join(tmpdir(), `${prefix}-`));
  const vhost = await createThrowawayVhost(amqpUrl, prefix);
  const mongo = await startEmbeddedMongo({ dbPath: path.join(dir, 'mongo') });
  const s3 = await startEmbeddedS3({ dataDir: path.join(dir, 's3') });
  const [authPort, billingPort, generationPort] = [await freePort(), await freePort(), await freePort()];
  const urls = {
    auth: `http://127.0.0.1:${authPort}`,
    billing: `http://127.0.0.1:${billingPort}`,
    generation: `http://127.0.0.1:${generationPort}`,
  };
  // DEV_IDENTITY_PROVIDER: the dev identity provider (auth) and dev checkout (billing), as the launcher sets it.
  // METRICS_PORT 0: each process's metrics listener on a free port, so the processes do not collide.
  const sharedEnv = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    METRICS_PORT: '0',
    MONGO_URL: mongo.url,
    AMQP_URL: vhost.url,
    DEV_IDENTITY_PROVIDER: 'true',
    SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET,
  };
  const generationEnv = {
    ...sharedEnv,
    PORT: String(generationPort),
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY: s3.accessKey,
    S3_SECRET_KEY: s3.secretKey,
    S3_BUCKET: GENERATION_BUCKET,
    BILLING_URL: urls.billing,
    AUTH_URL: urls.auth,
  };

  // Kept from the moment each process exists: when a test's start-up fails half-way (one of several processes
  // started side by side exits), `stop` must still end the others, or they keep the test run from exiting.
  const running = new Set<ServiceProcess>();
  const keep = (service: ServiceProcess) => {
    running.add(service);
    service.child.once('exit', () => running.delete(service));
  };
  const start = (options: Parameters<typeof startServiceProcess>[0]) =>
    startServiceProcess({ ...options, onSpawned: keep });
  return {
    urls,
    mongo,
    s3,
    vhost,
    sharedEnv,
    generationEnv,
    start,
    startBilling: () =>
      start({
        name: 'billing',
        script: 'services/billing/dist/main.js',
        env: { ...sharedEnv, PORT: String(billingPort) },
        readyUrl: urls.billing,
      }),
    startAuth: () =>
      start({
        name: 'auth',
        script: 'services/auth/dist/main.js',
        env: { ...sharedEnv, PORT: String(authPort) },
        readyUrl: urls.auth,
      }),
    async stop() {
      // SIGTERM lets each drain; a process that has not ended after a while is killed.
      await Promise.all(
        [...running].map(async (service) => {
          const kill = setTimeout(() => service.child.kill('SIGKILL'), 20_000);
          await service.stop('SIGTERM');
          clearTimeout(kill);
        }),
      );
      await s3.stop();
      await mongo.stop();
      await vhost.remove();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface GenerationStatusAnswer {
  images: Array<{ id: string; output_url: string; metadata: { fixes_done: boolean[] } }>;
  gen_error: string | null;
  status: 'pending' | 'processing' | 'completed' | 'failed';
}

export interface CreditEntry {
  generation_id: string | null;
  transaction_type: 'increase' | 'decrease';
  amount: number;
}

/**
 * One user's calls to generation and billing, made as the gateway makes them (the verified user in a signed token). Each
 * call has a connection of its own: these tests kill and restart the processes they call, and a kept-alive
 * connection to a process that was killed, or closed by a busy one just as it is reused, would fail the call.
 */
export function userCalls(urls: DistributedServices['urls'], userId: string) {
  const call = (url: string, json?: unknown) =>
    fetch(url, {
      method: json === undefined ? 'GET' : 'POST',
      headers: {
        connection: 'close',
        ...serviceCallHeaders(userId),
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: json === undefined ? undefined : JSON.stringify(json),
    });

  /** The answer of a generation route, whatever its status. */
  async function generation<T>(pathname: string, json?: unknown): Promise<{ status: number; body: T }> {
    const answer = await call(`${urls.generation}${pathname}`, json);
    return { status: answer.status, body: (await answer.json()) as T };
  }

  return {
    generation,
    /** The body of a generation route that must answer 200. */
    async generationOk<T>(pathname: string, json?: unknown): Promise<T> {
      const answer = await generation<T>(pathname, json);
      if (answer.status !== 200)
        throw new Error(`${pathname} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return answer.body;
    },
    status: async (uuid: string) => (await generation<GenerationStatusAnswer>(`/image-gen/status/${uuid}`)).body,
    async creditsLeft(): Promise<number> {
      const answer = await call(`${urls.billing}/internal/users/${userId}/billing`);
      if (answer.status !== 200) throw new Error(`billing answered ${answer.status}: ${await answer.text()}`);
      return ((await answer.json()) as { credits: number }).credits;
    },
    /** The user's credit entries of one generation, from billing's own credit log route. */
    async creditEntriesOf(uuid: string): Promise<CreditEntry[]> {
      const answer = await call(`${urls.billing}/credits/log?page=1&pageSize=100`);
      const log = (await answer.json()) as { items: CreditEntry[] };
      return log.items.filter((entry) => entry.generation_id === uuid);
    },
  };
}

/** A preset saved by an older version whose look the renderer no longer has: the image made from it fails. */
export async function retirePresetLook(mongoUrl: string, presetId: string): Promise<void> {
  const handle = await connectMongo({
    url: mongoUrl,
    dbName: 'generation',
    logger: createLogger({ service: 'fault-test', level: 'error' }),
  });
  try {
    const { ObjectId } = handle.connection.base.mongo;
    await handle.connection
      .collection('style_presets')
      .updateOne({ _id: new ObjectId(presetId) }, { $set: { 'recipe.look': 'retired-look' } });
  } finally {
    await handle.close();
  }
}
