import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedMongo } from '@productgen/embedded-mongo';

/** A MongoDB deployment the conformance suite runs against. */
export interface Target {
  name: string;
  /** Returns a base URL (no database) and a teardown. */
  start(): Promise<{ url: string; stop(): Promise<void> }>;
}

export async function makeTempDir(prefix = 'embedded-mongo-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export const embeddedTarget: Target = {
  name: 'embedded',
  async start() {
    const dbPath = await makeTempDir();
    const server = await startEmbeddedMongo({ dbPath });
    return {
      url: server.url,
      async stop() {
        await server.stop();
        await rm(dbPath, { recursive: true, force: true });
      },
    };
  },
};

/** The embedded server always; a real MongoDB too when MONGO_URL is set. */
export function conformanceTargets(): [string, Target][] {
  const targets: Target[] = [embeddedTarget];
  const realUrl = process.env.MONGO_URL;
  if (realUrl) {
    targets.push({ name: 'real MongoDB', start: async () => ({ url: realUrl, stop: async () => undefined }) });
  }
  return targets.map((target) => [target.name, target]);
}

let counter = 0;
/** A database name unique to this run, so suites never collide on a shared real server. */
export function uniqueDbName(prefix: string): string {
  counter++;
  return `${prefix}_${process.pid}_${Date.now().toString(36)}_${counter}`;
}

/** Appends a database name to a base URL that may carry query options. */
export function withDatabase(url: string, db: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${db}`;
  return parsed.toString();
}
