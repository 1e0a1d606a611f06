import { rm } from 'node:fs/promises';
import { type EmbeddedMongo, startEmbeddedMongo } from '@productgen/embedded-mongo';
import mongoose from 'mongoose';
import { waitFor } from '@productgen/test-kit';
import { makeTempDir } from './helpers/targets';

jest.setTimeout(30_000);

describe('TTL indexes (embedded server)', () => {
  let dbPath: string;
  let server: EmbeddedMongo;
  let client: mongoose.mongo.MongoClient;

  beforeAll(async () => {
    dbPath = await makeTempDir();
    server = await startEmbeddedMongo({ dbPath, ttlMonitorIntervalMs: 100 });
    client = await mongoose.mongo.MongoClient.connect(server.url);
  });

  afterAll(async () => {
    await client?.close();
    await server?.stop();
    await rm(dbPath, { recursive: true, force: true });
  });

  it('removes documents whose indexed date is older than expireAfterSeconds and keeps the rest', async () => {
    const sessions = client.db('ttl').collection('sessions');
    await sessions.createIndex({ createdAt: 1 }, { expireAfterSeconds: 60 });
    await sessions.insertMany([
      { name: 'stale', createdAt: new Date(Date.now() - 120_000) },
      { name: 'fresh', createdAt: new Date() },
      { name: 'undated', createdAt: 'not a date' },
    ]);
    // The TTL sweep is timer-driven, so there is no event to await.
    await waitFor(async () => (await sessions.countDocuments({ name: 'stale' })) === 0, 'the TTL sweep', 10_000);
    expect((await sessions.find().toArray()).map((d) => d.name).sort()).toEqual(['fresh', 'undated']);
  });
});
