import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Schema } from 'mongoose';
import { startEmbeddedMongo, type EmbeddedMongo } from '@productgen/embedded-mongo';
import { connectMongo, redactUrl } from '@productgen/service-kit';
import { listen, memoryLogger } from './helpers';

jest.setTimeout(60_000);

describe('connectMongo', () => {
  it('fails within the selection timeout with a message naming the server but not the password', async () => {
    // A port that is certainly closed: one we just released.
    const released = await listen((_req, res) => res.end());
    await released.close();
    const port = new URL(released.url).port;
    const { logger } = memoryLogger('mongo-test');

    const attempt = connectMongo({
      url: `mongodb://app:hunter2@127.0.0.1:${port}/?directConnection=true`,
      dbName: 'nowhere',
      logger,
      serverSelectionTimeoutMs: 500,
    });
    await expect(attempt).rejects.toThrow(`Cannot connect to MongoDB at mongodb://app:***@127.0.0.1:${port}/`);
    await expect(attempt).rejects.not.toThrow('hunter2');
  });

  it('redacts only the password of a URL', () => {
    expect(redactUrl('mongodb://user:pw@db:27017/x')).toBe('mongodb://user:***@db:27017/x');
    expect(redactUrl('mongodb://db:27017')).toBe('mongodb://db:27017');
    expect(redactUrl('::not a url::')).toBe('(unparseable URL)');
  });

  describe('against the embedded MongoDB server', () => {
    let dbPath: string;
    let mongo: EmbeddedMongo;

    beforeAll(async () => {
      dbPath = await mkdtemp(path.join(tmpdir(), 'service-kit-mongo-'));
      mongo = await startEmbeddedMongo({ dbPath });
    });
    afterAll(async () => {
      await mongo.stop();
      await rm(dbPath, { recursive: true, force: true });
    });

    it('gives each service its own database on one server, with a working ping and close', async () => {
      const { logger } = memoryLogger('mongo-test');
      const auth = await connectMongo({ url: mongo.url, dbName: 'auth', logger });
      const billing = await connectMongo({ url: mongo.url, dbName: 'billing', logger });
      try {
        await auth.ping();
        const noteSchema = new Schema({ text: { type: String, required: true } });
        const AuthNote = auth.connection.model('Note', noteSchema);
        const BillingNote = billing.connection.model('Note', noteSchema);
        await AuthNote.create({ text: 'only in auth' });

        expect((await AuthNote.find().lean()).map((note) => note.text)).toEqual(['only in auth']);
        expect(await BillingNote.countDocuments()).toBe(0);
      } finally {
        await auth.close();
        await billing.close();
      }
      await expect(auth.ping()).rejects.toThrow();
    });
  });
});
