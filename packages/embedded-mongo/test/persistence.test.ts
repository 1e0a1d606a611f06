import { appendFile, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { startEmbeddedMongo, type EmbeddedMongo } from '@productgen/embedded-mongo';
import mongoose, { type Connection, Schema } from 'mongoose';
import { parseRecords } from '../src/storage/journal-file';
import { makeTempDir } from './helpers/targets';

jest.setTimeout(60_000);

const accountSchema = new Schema({ email: { type: String, unique: true }, balance: Number });

/** Durability of the embedded server across restarts of the same dbPath. */
describe('persistence (embedded server)', () => {
  let dbPath: string;
  let server: EmbeddedMongo | undefined;
  let conn: Connection | undefined;

  const start = async (): Promise<Connection> => {
    server = await startEmbeddedMongo({ dbPath });
    conn = await mongoose.createConnection(`${server.url}/persist`, { autoIndex: false }).asPromise();
    return conn;
  };

  const shutdown = async (): Promise<void> => {
    await conn?.close();
    await server?.stop();
    conn = undefined;
    server = undefined;
  };

  const journalFiles = async (): Promise<string[]> =>
    (await readdir(dbPath)).filter((name) => name.startsWith('journal-')).sort();

  /** The highest journal/snapshot generation on disk: it grows by one per compaction. */
  const latestGeneration = async (): Promise<number> =>
    Math.max(
      ...(await readdir(dbPath)).flatMap((name) => {
        const match = /^(?:journal|snapshot)-(\d+)\./.exec(name);
        return match ? [Number(match[1])] : [];
      }),
    );

  beforeEach(async () => {
    dbPath = await makeTempDir();
  });

  afterEach(async () => {
    await shutdown();
    await rm(dbPath, { recursive: true, force: true });
  });

  it('keeps documents, updates, deletes and indexes across a stop and start', async () => {
    const first = await start();
    const Account = first.model('Account', accountSchema);
    await Account.createIndexes();
    const [keep, change, remove] = await Account.create([
      { email: 'keep@x', balance: 1 },
      { email: 'change@x', balance: 2 },
      { email: 'remove@x', balance: 3 },
    ]);
    await Account.updateOne({ _id: change!._id }, { $inc: { balance: 40 } });
    await Account.deleteOne({ _id: remove!._id });
    await shutdown();

    const second = await start();
    const Reopened = second.model('Account', accountSchema);
    const docs = await Reopened.find().sort({ email: 1 }).lean();
    expect(docs.map((d) => [d.email, d.balance])).toEqual([
      ['change@x', 42],
      ['keep@x', 1],
    ]);
    expect((await Reopened.findById(keep!._id).lean())!._id.equals(keep!._id)).toBe(true);
    await expect(Reopened.create({ email: 'keep@x' })).rejects.toMatchObject({ code: 11000 });
    expect((await Reopened.listIndexes()).map((i) => i.name)).toEqual(['_id_', 'email_1']);
  });

  it('has an acknowledged write in the journal on disk before replying', async () => {
    const db = (await start()).db!;
    await db.collection('ack').insertOne({ _id: 'durable', v: 1 } as never);
    const [journal] = await journalFiles();
    const { records } = parseRecords(await readFile(join(dbPath, journal!)));
    expect(records).toContainEqual(expect.objectContaining({ op: 'put', coll: 'ack', doc: { _id: 'durable', v: 1 } }));
  });

  it('ignores a torn record at the end of the journal', async () => {
    const db = (await start()).db!;
    await db.collection('torn').insertMany([{ n: 1 }, { n: 2 }]);
    await shutdown();
    const [journal] = await journalFiles();
    // A crash mid-append leaves a header promising more bytes than were written.
    const torn = Buffer.alloc(12);
    torn.writeUInt32LE(500, 0);
    await appendFile(join(dbPath, journal!), torn);

    const reopened = (await start()).db!;
    expect(await reopened.collection('torn').countDocuments()).toBe(2);
    await reopened.collection('torn').insertOne({ n: 3 });
    await shutdown();
    expect(await (await start()).db!.collection('torn').countDocuments()).toBe(3);
  });

  it('compacts the journal into a snapshot at startup', async () => {
    const db = (await start()).db!;
    const coll = db.collection('compact');
    await coll.insertOne({ _id: 'counter', n: 0 } as never);
    for (let i = 0; i < 20; i++) await coll.updateOne({ _id: 'counter' } as never, { $inc: { n: 1 } });
    await shutdown();
    await start();
    const files = (await readdir(dbPath)).filter((name) => /^(snapshot|journal)-/.test(name));
    expect(files.filter((name) => name.startsWith('snapshot-'))).toHaveLength(1);
    expect(files.filter((name) => name.startsWith('journal-')).length).toBeLessThanOrEqual(1);
    expect(await conn!.db!.collection('compact').findOne({ _id: 'counter' } as never)).toEqual({
      _id: 'counter',
      n: 20,
    });
  });

  it('loses nothing when the journal is compacted while writes keep arriving', async () => {
    server = await startEmbeddedMongo({ dbPath, compactionThresholdBytes: 1, compactionCheckIntervalMs: 5 });
    conn = await mongoose.createConnection(`${server.url}/persist`).asPromise();
    const counters = conn.db!.collection<{ _id: number; n: number }>('counters');
    await counters.insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: i, n: 0 })));
    const startGeneration = await latestGeneration();
    for (let round = 0; round < 30; round++) {
      await Promise.all(Array.from({ length: 10 }, (_, i) => counters.updateOne({ _id: i }, { $inc: { n: 1 } })));
    }
    const endGeneration = await latestGeneration();
    expect(endGeneration).toBeGreaterThan(startGeneration);
    await shutdown();

    const reopened = (await start()).db!.collection<{ _id: number; n: number }>('counters');
    expect((await reopened.find().sort({ _id: 1 }).toArray()).map((d) => d.n)).toEqual(Array(10).fill(30));
  });

  it('refuses to open a dbPath that another server is using', async () => {
    await start();
    await expect(startEmbeddedMongo({ dbPath })).rejects.toThrow(/in use/);
  });
});
