import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startEmbeddedMongo, type EmbeddedMongo } from '@productgen/embedded-mongo';
import { connectMongo, createLogger } from '@productgen/service-kit';
import { repoRoot } from '@productgen/test-kit/platform-process';

// Each service's migration step (dist/migrate.js: the compose `<service>-migrate` containers, the Kubernetes
// `migrate-<service>` Jobs, start:distributed) on an empty database, then again on the migrated one.
jest.setTimeout(180_000);

const run = promisify(execFile);
const SERVICES = ['auth', 'billing', 'generation', 'bulk'];

/** Every collection of a database with its index names, sorted. */
async function schemaOf(mongoUrl: string, dbName: string): Promise<Record<string, string[]>> {
  const handle = await connectMongo({
    url: mongoUrl,
    dbName,
    logger: createLogger({ service: 'test', level: 'error' }),
  });
  try {
    const db = handle.connection.db!;
    const schema: Record<string, string[]> = {};
    for (const { name } of await db.listCollections().toArray()) {
      schema[name] = (await db.collection(name).listIndexes().toArray()).map((index) => String(index.name)).sort();
    }
    return schema;
  } finally {
    await handle.close();
  }
}

let dir: string;
let mongo: EmbeddedMongo;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'productgen-migrate-'));
  mongo = await startEmbeddedMongo({ dbPath: path.join(dir, 'mongo') });
});

afterAll(async () => {
  await mongo?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test.each(SERVICES)(
  'the %s migration creates its collections and indexes, and a second run changes nothing',
  async (service) => {
    const migrate = () =>
      run(process.execPath, [path.join(repoRoot, 'services', service, 'dist', 'migrate.js')], {
        cwd: repoRoot,
        env: { PATH: process.env.PATH, MONGO_URL: mongo.url, LOG_LEVEL: 'info' },
      });
    expect(await schemaOf(mongo.url, service)).toEqual({});

    const first = await migrate();
    expect(first.stdout).toContain('"msg":"migration done"');
    const migrated = await schemaOf(mongo.url, service);
    // Beyond the _id indexes: the unique keys and query indexes the service's schemas declare.
    expect(Object.keys(migrated).length).toBeGreaterThan(0);
    expect(
      Object.values(migrated)
        .flat()
        .filter((index) => index !== '_id_'),
    ).not.toEqual([]);

    await migrate();
    expect(await schemaOf(mongo.url, service)).toEqual(migrated);
  },
);

test('a migration without MONGO_URL ends with the variable named, before touching anything', async () => {
  const failed = await run(process.execPath, [path.join(repoRoot, 'services', 'auth', 'dist', 'migrate.js')], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH },
  }).catch((error: { code: number; stderr: string }) => error);
  expect(failed).toMatchObject({ code: 1, stderr: expect.stringContaining('MONGO_URL') });
});
