import mongoose, { type Connection, Schema } from 'mongoose';
import { conformanceTargets, type Target, uniqueDbName, withDatabase } from './helpers/targets';

jest.setTimeout(60_000);

const itemSchema = new Schema({ name: String, qty: Number, tags: [String], meta: { color: String } });
const manySchema = new Schema({ seq: Number, pad: String });
const walletSchema = new Schema({ balance: Number });
const famSchema = new Schema({ n: Number, tag: String });
const userSchema = new Schema({ email: { type: String, unique: true }, name: String });

/** The models on a connection, typed as mongoose infers them (a declared Model<…> type's virtuals can disagree). */
const modelsOn = (conn: Connection) => ({
  Item: conn.model('Item', itemSchema),
  Many: conn.model('Many', manySchema, 'many'),
  Wallet: conn.model('Wallet', walletSchema),
  Fam: conn.model('Fam', famSchema, 'fam'),
  User: conn.model('User', userSchema),
});
type Models = ReturnType<typeof modelsOn>;

describe.each(conformanceTargets())('MongoDB conformance through mongoose: %s', (_name, target: Target) => {
  let stopTarget: () => Promise<void>;
  let conn: Connection;
  let Item: Models['Item'];
  let Many: Models['Many'];
  let Wallet: Models['Wallet'];
  let Fam: Models['Fam'];
  let User: Models['User'];
  const commandsSeen: string[] = [];

  beforeAll(async () => {
    const started = await target.start();
    stopTarget = started.stop;
    conn = await mongoose
      .createConnection(withDatabase(started.url, uniqueDbName('conformance')), {
        monitorCommands: true,
        autoIndex: false,
      })
      .asPromise();
    conn.getClient().on('commandStarted', (event) => commandsSeen.push(event.commandName));
    ({ Item, Many, Wallet, Fam, User } = modelsOn(conn));
  });

  afterAll(async () => {
    await conn?.dropDatabase();
    await conn?.close();
    await stopTarget?.();
  });

  describe('admin commands', () => {
    it('answers hello, ping and buildInfo like a writable standalone server', async () => {
      const admin = conn.db!.admin();
      const hello = await admin.command({ hello: 1 });
      expect(hello).toMatchObject({ isWritablePrimary: true, ok: 1 });
      expect(hello.maxWireVersion).toBeGreaterThanOrEqual(17);
      expect(hello.maxBsonObjectSize).toBe(16 * 1024 * 1024);
      expect(hello.localTime).toBeInstanceOf(Date);
      expect(await admin.command({ ping: 1 })).toMatchObject({ ok: 1 });
      const buildInfo = await admin.command({ buildInfo: 1 });
      expect(typeof buildInfo.version).toBe('string');
    });

    it('rejects an unknown command with code 59 CommandNotFound', async () => {
      await expect(conn.db!.command({ noSuchCmd: 1 })).rejects.toMatchObject({
        code: 59,
        codeName: 'CommandNotFound',
        message: expect.stringContaining("no such command: 'noSuchCmd'"),
      });
    });
  });

  describe('insert and find', () => {
    beforeAll(async () => {
      await Item.insertMany([
        { name: 'apple', qty: 5, tags: ['fruit', 'red'], meta: { color: 'red' } },
        { name: 'banana', qty: 12, tags: ['fruit'], meta: { color: 'yellow' } },
        { name: 'carrot', qty: 7, tags: ['veg'], meta: { color: 'orange' } },
        { name: 'date', qty: 0, tags: ['fruit', 'dried'] },
      ]);
    });

    it('filters with query operators, dotted paths and array membership', async () => {
      const names = async (
        filter: mongoose.QueryFilter<mongoose.InferSchemaType<typeof itemSchema>>,
      ): Promise<string[]> => (await Item.find(filter).sort({ name: 1 }).lean()).map((d) => String(d.name));
      expect(await names({ qty: { $gte: 5, $lt: 12 } })).toEqual(['apple', 'carrot']);
      expect(await names({ tags: 'fruit' })).toEqual(['apple', 'banana', 'date']);
      expect(await names({ 'meta.color': { $in: ['red', 'orange'] } })).toEqual(['apple', 'carrot']);
      expect(await names({ meta: { $exists: false } })).toEqual(['date']);
      expect(await names({ $or: [{ qty: 0 }, { name: /^ban/ }] })).toEqual(['banana', 'date']);
    });

    it('sorts, skips, limits and projects', async () => {
      const docs = await Item.find({}, { name: 1, _id: 0 }).sort({ qty: -1 }).skip(1).limit(2).lean();
      expect(docs).toEqual([{ name: 'carrot' }, { name: 'apple' }]);
      const excluded = await Item.findOne({ name: 'apple' }).select('-tags -meta.color').lean();
      expect(Object.keys(excluded ?? {}).sort()).toEqual(['__v', '_id', 'meta', 'name', 'qty']);
      // Projections shape the reply only, never the stored document.
      expect(await Item.findOne({ name: 'apple' }, { 'meta.color': 1, _id: 0 }).lean()).toEqual({
        meta: { color: 'red' },
      });
      expect((await Item.findOne({ name: 'apple' }).lean())!.tags).toEqual(['fruit', 'red']);
    });

    it('finds by _id and returns null for a missing one', async () => {
      const apple = await Item.findOne({ name: 'apple' }).lean();
      const byId = await Item.findById(apple!._id).lean();
      expect(byId).toEqual(apple);
      expect(await Item.findById(new mongoose.Types.ObjectId()).lean()).toBeNull();
    });

    it('round-trips BSON types: ObjectId, Date, Long, Decimal128, nested arrays', async () => {
      const coll = conn.db!.collection('types');
      const ref = new mongoose.mongo.ObjectId();
      const when = new Date('2024-02-03T04:05:06.789Z');
      const big = mongoose.mongo.Long.fromString('9007199254740993');
      const price = mongoose.mongo.Decimal128.fromString('19.99');
      const { insertedId } = await coll.insertOne({ ref, when, big, price, nested: [[1, 2], { a: [3] }] });
      const back = await coll.findOne({ _id: insertedId }, { promoteLongs: false });
      expect(back!.ref.equals(ref)).toBe(true);
      expect(back!.when.getTime()).toBe(when.getTime());
      expect(String(back!.big)).toBe('9007199254740993');
      expect(back!.price.toString()).toBe('19.99');
      expect(back!.nested).toEqual([[1, 2], { a: [3] }]);
      expect(await coll.countDocuments({ when: { $gt: new Date('2024-01-01') } })).toBe(1);
    });

    it('honours singleBatch/negative limit and batchSize on the raw find command', async () => {
      const reply = await conn.db!.command({ find: 'items', filter: {}, batchSize: 2 });
      expect(reply.cursor.firstBatch).toHaveLength(2);
      expect(String(reply.cursor.id)).not.toBe('0');
      expect(reply.cursor.ns).toBe(`${conn.db!.databaseName}.items`);
      await conn.db!.command({ killCursors: 'items', cursors: [reply.cursor.id] });
      const single = await conn.db!.command({ find: 'items', filter: {}, batchSize: 2, singleBatch: true });
      expect(single.cursor.firstBatch).toHaveLength(2);
      expect(String(single.cursor.id)).toBe('0');
    });
  });

  describe('cursors larger than one batch', () => {
    beforeAll(async () => {
      const docs = Array.from({ length: 1000 }, (_, i) => ({ seq: i, pad: 'x'.repeat(20) }));
      await conn.db!.collection('many').insertMany(docs);
    });

    it('streams 1,000 documents with batchSize 101 through getMore', async () => {
      const before = commandsSeen.filter((c) => c === 'getMore').length;
      const seen: number[] = [];
      for await (const doc of Many.find().sort({ seq: 1 }).batchSize(101).lean().cursor()) seen.push(doc.seq as number);
      expect(seen).toEqual(Array.from({ length: 1000 }, (_, i) => i));
      expect(commandsSeen.filter((c) => c === 'getMore').length - before).toBe(9);
    });

    it('kills a cursor so that a later getMore fails with CursorNotFound', async () => {
      const cursor = conn.db!.collection('many').find({}, { batchSize: 10 });
      await cursor.next();
      const id = cursor.id!;
      expect(String(id)).not.toBe('0');
      await cursor.close();
      expect(commandsSeen).toContain('killCursors');
      await expect(conn.db!.command({ getMore: id, collection: 'many' })).rejects.toMatchObject({ code: 43 });
    });
  });

  describe('updates', () => {
    interface UpdateDoc {
      a?: number;
      b?: string;
      list?: number[];
      set?: string[];
      nested?: { deep?: boolean };
      group?: string;
      v?: number;
      key?: string;
      seen?: number;
      createdBy?: string;
      grades?: { g: number }[];
      old?: boolean;
      keep?: boolean;
      fresh?: number;
      label?: string;
    }
    const coll = (): mongoose.mongo.Collection<UpdateDoc> => conn.db!.collection<UpdateDoc>('updates');

    it('applies $set, $unset, $inc, $push/$each, $pull and $addToSet', async () => {
      const { insertedId } = await coll().insertOne({ a: 1, b: 'x', list: [1, 2, 3], set: ['a'] });
      const result = await coll().updateOne(
        { _id: insertedId },
        { $set: { 'nested.deep': true }, $unset: { b: '' }, $inc: { a: 4 }, $push: { list: { $each: [4, 5] } } },
      );
      expect(result).toMatchObject({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0 });
      await coll().updateOne(
        { _id: insertedId },
        { $pull: { list: { $gte: 4 } }, $addToSet: { set: { $each: ['a', 'b'] } } },
      );
      expect(await coll().findOne({ _id: insertedId }, { projection: { _id: 0 } })).toEqual({
        a: 5,
        list: [1, 2, 3],
        set: ['a', 'b'],
        nested: { deep: true },
      });
      const noop = await coll().updateOne({ _id: insertedId }, { $set: { a: 5 } });
      expect(noop).toMatchObject({ matchedCount: 1, modifiedCount: 0 });
    });

    it('updates many documents and reports matched/modified counts', async () => {
      await coll().insertMany([
        { group: 'g', v: 1 },
        { group: 'g', v: 2 },
        { group: 'g', v: 2 },
      ]);
      const result = await coll().updateMany({ group: 'g' }, { $set: { v: 2 } });
      expect(result).toMatchObject({ matchedCount: 3, modifiedCount: 1 });
    });

    it('upserts with $setOnInsert and reports the upserted _id', async () => {
      const first = await coll().updateOne(
        { key: 'k1' },
        { $set: { seen: 1 }, $setOnInsert: { createdBy: 'upsert' } },
        { upsert: true },
      );
      expect(first.upsertedCount).toBe(1);
      expect(first.upsertedId).toBeInstanceOf(mongoose.mongo.ObjectId);
      const second = await coll().updateOne(
        { key: 'k1' },
        { $set: { seen: 2 }, $setOnInsert: { createdBy: 'other' } },
        { upsert: true },
      );
      expect(second).toMatchObject({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0 });
      expect(await coll().findOne({ key: 'k1' }, { projection: { _id: 0 } })).toEqual({
        key: 'k1',
        seen: 2,
        createdBy: 'upsert',
      });
    });

    it('upserts when the query has a range condition: the update still builds the inserted document', async () => {
      const first = await coll().updateOne(
        { _id: 'slot-1' as never, at: { $lt: 5 } },
        { $set: { at: 7, holder: 'a' }, $setOnInsert: { owner: 'u' } },
        { upsert: true },
      );
      expect(first).toMatchObject({ upsertedCount: 1, upsertedId: 'slot-1' });
      expect(await coll().findOne({ _id: 'slot-1' as never })).toEqual({
        _id: 'slot-1',
        at: 7,
        holder: 'a',
        owner: 'u',
      });
      // Taken (at is not below 5): the upsert's insert collides with the existing _id.
      await expect(
        coll().updateOne({ _id: 'slot-1' as never, at: { $lt: 5 } }, { $set: { at: 8 } }, { upsert: true }),
      ).rejects.toMatchObject({ code: 11000 });
    });

    it('updates array elements selected by arrayFilters and the positional operator', async () => {
      const { insertedId } = await coll().insertOne({ grades: [{ g: 80 }, { g: 95 }, { g: 60 }] });
      await coll().updateOne(
        { _id: insertedId },
        { $set: { 'grades.$[low].g': 70 } },
        { arrayFilters: [{ 'low.g': { $lt: 70 } }] },
      );
      await coll().updateOne({ _id: insertedId, 'grades.g': 95 }, { $inc: { 'grades.$.g': 1 } });
      expect((await coll().findOne({ _id: insertedId }))!.grades).toEqual([{ g: 80 }, { g: 96 }, { g: 70 }]);
    });

    it('replaces a whole document, keeping its _id', async () => {
      const { insertedId } = await coll().insertOne({ old: true, keep: false });
      const result = await coll().replaceOne({ _id: insertedId }, { fresh: 1 });
      expect(result.modifiedCount).toBe(1);
      expect(await coll().findOne({ _id: insertedId })).toEqual({ _id: insertedId, fresh: 1 });
    });

    it('refuses to change _id and to $inc a string', async () => {
      const { insertedId } = await coll().insertOne({ label: 'text' });
      await expect(coll().updateOne({ _id: insertedId }, { $set: { _id: 'other' } })).rejects.toMatchObject({
        code: 66,
      });
      // Deliberately ill-typed: the server must refuse arithmetic on a string.
      const incrementString = { $inc: { label: 1 } } as unknown as mongoose.mongo.UpdateFilter<UpdateDoc>;
      await expect(coll().updateOne({ _id: insertedId }, incrementString)).rejects.toMatchObject({ code: 14 });
    });

    it('lets exactly 60 of 100 concurrent conditional $inc succeed on a balance of 60', async () => {
      const wallet = await Wallet.create({ balance: 60 });
      const results = await Promise.all(
        Array.from({ length: 100 }, () =>
          Wallet.updateOne({ _id: wallet._id, balance: { $gte: 1 } }, { $inc: { balance: -1 } }),
        ),
      );
      expect(results.filter((r) => r.modifiedCount === 1)).toHaveLength(60);
      expect(results.filter((r) => r.matchedCount === 0)).toHaveLength(40);
      expect((await Wallet.findById(wallet._id).lean())!.balance).toBe(0);
    });
  });

  describe('deletes and findAndModify', () => {
    const coll = (): mongoose.mongo.Collection => conn.db!.collection('fam');

    beforeEach(async () => {
      await coll().deleteMany({});
      await coll().insertMany([
        { n: 1, tag: 'a' },
        { n: 2, tag: 'a' },
        { n: 3, tag: 'b' },
      ]);
    });

    it('deletes one or many documents', async () => {
      expect((await coll().deleteOne({ tag: 'a' })).deletedCount).toBe(1);
      expect((await coll().deleteMany({ tag: { $in: ['a', 'b'] } })).deletedCount).toBe(2);
      expect(await coll().countDocuments()).toBe(0);
    });

    it('returns the document before or after an update, sorted and projected', async () => {
      const before = await coll().findOneAndUpdate(
        { tag: 'a' },
        { $inc: { n: 10 } },
        { sort: { n: -1 }, projection: { _id: 0, n: 1 }, returnDocument: 'before' },
      );
      expect(before).toEqual({ n: 2 });
      const after = await coll().findOneAndUpdate({ tag: 'b' }, { $set: { n: 30 } }, { returnDocument: 'after' });
      expect(after).toMatchObject({ n: 30, tag: 'b' });
    });

    it('upserts, removes and reports misses through findAndModify', async () => {
      const created = await coll().findOneAndUpdate(
        { tag: 'new' },
        { $set: { n: 9 } },
        { upsert: true, returnDocument: 'after', includeResultMetadata: true },
      );
      expect(created.value).toMatchObject({ tag: 'new', n: 9 });
      expect(created.lastErrorObject).toMatchObject({ n: 1, updatedExisting: false });
      const removed = await coll().findOneAndDelete({ tag: 'a' }, { sort: { n: 1 } });
      expect(removed).toMatchObject({ n: 1 });
      expect(await coll().findOneAndUpdate({ tag: 'none' }, { $set: { n: 0 } })).toBeNull();
    });

    it('works through mongoose findOneAndUpdate / findOneAndDelete', async () => {
      const updated = await Fam.findOneAndUpdate({ n: 3 }, { $set: { tag: 'c' } }, { returnDocument: 'after' }).lean();
      expect(updated).toMatchObject({ n: 3, tag: 'c' });
      expect(await Fam.findOneAndDelete({ n: 3 }).lean()).toMatchObject({ tag: 'c' });
      expect(await Fam.countDocuments()).toBe(2);
    });
  });

  describe('count and distinct', () => {
    it('counts with and without a filter and lists distinct values (arrays unwound)', async () => {
      const coll = conn.db!.collection('distinct');
      await coll.insertMany([
        { k: 'a', t: [1, 2] },
        { k: 'b', t: [2, 3] },
        { k: 'a', t: 3 },
      ]);
      expect(await coll.countDocuments({ k: 'a' })).toBe(2);
      expect(await coll.estimatedDocumentCount()).toBe(3);
      expect((await coll.distinct('k')).sort()).toEqual(['a', 'b']);
      expect((await coll.distinct('t', { k: 'b' })).sort()).toEqual([2, 3]);
      expect((await coll.distinct('t')).sort()).toEqual([1, 2, 3]);
      expect((await conn.db!.command({ count: 'distinct', query: { k: 'a' } })).n).toBe(2);
    });
  });

  describe('aggregation', () => {
    beforeAll(async () => {
      const authors = conn.db!.collection('authors');
      const books = conn.db!.collection('books');
      const { insertedIds } = await authors.insertMany([{ name: 'Ann' }, { name: 'Bob' }, { name: 'Cy' }]);
      await books.insertMany([
        { title: 'A1', author: insertedIds[0], genres: ['sf', 'drama'], pages: 100 },
        { title: 'A2', author: insertedIds[0], genres: ['sf'], pages: 300 },
        { title: 'B1', author: insertedIds[1], genres: ['drama'], pages: 200 },
      ]);
    });

    it('groups, sorts and counts', async () => {
      const byAuthor = await conn
        .db!.collection('books')
        .aggregate([
          { $group: { _id: '$author', pages: { $sum: '$pages' }, books: { $sum: 1 } } },
          { $sort: { pages: -1 } },
          { $project: { _id: 0, pages: 1, books: 1 } },
        ])
        .toArray();
      expect(byAuthor).toEqual([
        { pages: 400, books: 2 },
        { pages: 200, books: 1 },
      ]);
      const [counted] = await conn
        .db!.collection('books')
        .aggregate([{ $match: { pages: { $gt: 150 } } }, { $count: 'big' }])
        .toArray();
      expect(counted).toEqual({ big: 2 });
    });

    it('unwinds arrays and pages with $skip/$limit', async () => {
      const genres = await conn
        .db!.collection('books')
        .aggregate([
          { $unwind: '$genres' },
          { $group: { _id: '$genres', n: { $sum: 1 } } },
          { $sort: { _id: 1 } },
          { $skip: 0 },
          { $limit: 5 },
        ])
        .toArray();
      expect(genres).toEqual([
        { _id: 'drama', n: 2 },
        { _id: 'sf', n: 2 },
      ]);
    });

    it('joins another collection with $lookup', async () => {
      const rows = await conn
        .db!.collection('authors')
        .aggregate([
          { $lookup: { from: 'books', localField: '_id', foreignField: 'author', as: 'books' } },
          { $project: { _id: 0, name: 1, titles: '$books.title' } },
          { $sort: { name: 1 } },
        ])
        .toArray();
      expect(rows).toEqual([
        { name: 'Ann', titles: ['A1', 'A2'] },
        { name: 'Bob', titles: ['B1'] },
        { name: 'Cy', titles: [] },
      ]);
    });

    it('aggregates through mongoose with a cursor larger than one batch', async () => {
      const before = commandsSeen.filter((c) => c === 'getMore').length;
      const seqs: number[] = [];
      const cursor = Many.aggregate<{ seq: number }>([
        { $match: { seq: { $lt: 250 } } },
        { $project: { seq: 1 } },
      ]).cursor({
        batchSize: 50,
      });
      for await (const row of cursor) seqs.push(row.seq);
      expect(seqs).toHaveLength(250);
      expect(new Set(seqs).size).toBe(250);
      expect(commandsSeen.filter((c) => c === 'getMore').length - before).toBeGreaterThanOrEqual(1);
    });
  });

  describe('collections and databases', () => {
    it('creates, lists and drops collections', async () => {
      await conn.createCollection('explicit');
      await expect(conn.db!.command({ create: 'explicit' })).rejects.toMatchObject({ code: 48 });
      const names = (await conn.db!.listCollections().toArray()).map((c) => c.name);
      expect(names).toContain('explicit');
      const listed = await conn.db!.listCollections({ name: 'explicit' }).toArray();
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({ name: 'explicit', type: 'collection' });
      await conn.dropCollection('explicit');
      expect(await conn.db!.listCollections({ name: 'explicit' }).toArray()).toHaveLength(0);
    });

    it('lists databases and drops a whole database', async () => {
      const other = conn.useDb(uniqueDbName('conformance_other'));
      await other.db!.collection('c').insertOne({ x: 1 });
      const { databases } = await conn.db!.admin().listDatabases();
      expect(databases.map((d) => d.name)).toEqual(
        expect.arrayContaining([conn.db!.databaseName, other.db!.databaseName]),
      );
      await other.dropDatabase();
      const after = await conn.db!.admin().listDatabases({ nameOnly: true });
      expect(after.databases.map((d) => d.name)).not.toContain(other.db!.databaseName);
    });
  });

  describe('indexes', () => {
    it('enforces a unique index with mongoose’s duplicate-key error', async () => {
      await User.createIndexes();
      await User.create({ email: 'dup@example.com', name: 'first' });
      const error = await User.create({ email: 'dup@example.com', name: 'second' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(mongoose.mongo.MongoServerError);
      expect(error).toMatchObject({
        code: 11000,
        keyPattern: { email: 1 },
        keyValue: { email: 'dup@example.com' },
        message: expect.stringContaining('E11000 duplicate key error'),
      });
      // An update that would collide is refused too, leaving the document unchanged.
      const other = await User.create({ email: 'other@example.com' });
      await expect(User.updateOne({ _id: other._id }, { email: 'dup@example.com' })).rejects.toMatchObject({
        code: 11000,
      });
      expect((await User.findById(other._id).lean())!.email).toBe('other@example.com');
    });

    it('always enforces _id uniqueness and reports unordered bulk errors per document', async () => {
      const coll = conn.db!.collection('ids');
      await coll.insertOne({ _id: 'fixed' } as never);
      const error = await coll
        .insertMany([{ _id: 'a' }, { _id: 'fixed' }, { _id: 'b' }] as never[], { ordered: false })
        .catch((e: unknown) => e as mongoose.mongo.MongoBulkWriteError);
      expect(error).toBeInstanceOf(mongoose.mongo.MongoBulkWriteError);
      const bulk = error as mongoose.mongo.MongoBulkWriteError;
      expect(bulk.code).toBe(11000);
      expect(bulk.insertedCount).toBe(2);
      expect(bulk.writeErrors).toHaveLength(1);
      expect(await coll.countDocuments()).toBe(3);
    });

    it('supports compound unique and partial indexes, listIndexes and dropIndexes', async () => {
      const coll = conn.db!.collection('idx');
      await coll.createIndex({ a: 1, b: -1 }, { unique: true, name: 'a_b' });
      await coll.createIndex(
        { email: 1 },
        { unique: true, partialFilterExpression: { active: true }, name: 'active_email' },
      );
      await coll.insertMany([
        { a: 1, b: 1 },
        { a: 1, b: 2 },
      ]);
      await expect(coll.insertOne({ a: 1, b: 2 })).rejects.toMatchObject({ code: 11000, keyValue: { a: 1, b: 2 } });
      // Documents missing both compound fields index as {a: null, b: null}: only one may exist, as in mongod.
      await coll.insertOne({ email: 'x@y', active: false });
      await expect(coll.insertOne({ email: 'x@y', active: false })).rejects.toMatchObject({
        code: 11000,
        keyValue: { a: null, b: null },
      });
      const partial = conn.db!.collection('idx_partial');
      await partial.createIndex(
        { email: 1 },
        { unique: true, partialFilterExpression: { active: true }, name: 'active_email' },
      );
      await partial.insertMany([
        { email: 'x@y', active: false },
        { email: 'x@y', active: false },
        { email: 'x@y', active: true },
      ]);
      await expect(partial.insertOne({ email: 'x@y', active: true })).rejects.toMatchObject({ code: 11000 });
      const indexes = await coll.listIndexes().toArray();
      expect(indexes.map((i) => i.name).sort()).toEqual(['_id_', 'a_b', 'active_email']);
      expect(indexes.find((i) => i.name === 'active_email')).toMatchObject({
        unique: true,
        partialFilterExpression: { active: true },
        key: { email: 1 },
      });
      await coll.dropIndex('a_b');
      await coll.insertOne({ a: 1, b: 2 });
      expect((await coll.listIndexes().toArray()).map((i) => i.name).sort()).toEqual(['_id_', 'active_email']);
      await expect(coll.createIndex({ a: 1, b: -1 }, { unique: true })).rejects.toMatchObject({ code: 11000 });
    });

    it('uses an index for equality lookups without changing results', async () => {
      const coll = conn.db!.collection('lookup');
      await coll.createIndex({ sku: 1 });
      await coll.insertMany(Array.from({ length: 50 }, (_, i) => ({ sku: `s${i % 10}`, i })));
      expect(await coll.countDocuments({ sku: 's3' })).toBe(5);
      expect(await coll.countDocuments({ sku: { $in: ['s1', 's2'] }, i: { $lt: 20 } })).toBe(4);
    });
  });
});
