import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mongoose, { type Connection } from 'mongoose';
import { startEmbeddedMongo, type EmbeddedMongo } from '@productgen/embedded-mongo';

/**
 * One embedded MongoDB-compatible server per test file, in a temporary folder; each service instance gets its own
 * database (`<name>_<random>` unless the test names it). `stop` closes every connection made and removes the folder.
 */
export class MongoFixture {
  private server: EmbeddedMongo | undefined;
  private dbPath: string | undefined;
  private readonly connections: Connection[] = [];

  /** `name` prefixes the temporary folder and the databases (the service under test, e.g. `auth`). */
  constructor(private readonly name = 'productgen') {}

  /** The server's connection string (once started). */
  get url(): string {
    if (!this.server) throw new Error('MongoFixture not started');
    return this.server.url;
  }

  async start(): Promise<void> {
    this.dbPath = await mkdtemp(path.join(tmpdir(), `${this.name}-test-`));
    this.server = await startEmbeddedMongo({ port: 0, dbPath: this.dbPath });
  }

  async connect(dbName = `${this.name}_${randomBytes(4).toString('hex')}`): Promise<Connection> {
    const connection = await mongoose.createConnection(this.url, { dbName }).asPromise();
    this.connections.push(connection);
    return connection;
  }

  async stop(): Promise<void> {
    await Promise.all(this.connections.map((connection) => connection.close()));
    await this.server?.stop();
    if (this.dbPath) await rm(this.dbPath, { recursive: true, force: true });
  }
}
