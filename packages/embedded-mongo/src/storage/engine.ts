import { ObjectId } from 'bson';
import { CommandError } from '../errors';
import { type Doc, isPlainObject } from '../values';
import { Collection } from './collection';
import type { IndexSpec } from './indexes';

/** One logical change, as written to the journal and replayed on recovery. */
export type JournalRecord =
  | { op: 'create'; db: string; coll: string; options: Doc; uuid: Collection['uuid'] }
  | { op: 'put'; db: string; coll: string; doc: Doc }
  | { op: 'del'; db: string; coll: string; id: unknown }
  | { op: 'drop'; db: string; coll: string }
  | { op: 'dropDb'; db: string }
  | { op: 'index'; db: string; coll: string; spec: IndexSpec }
  | { op: 'dropIndex'; db: string; coll: string; name: string }
  | { op: 'rename'; db: string; coll: string; toDb: string; toColl: string };

export type JournalSink = (record: JournalRecord) => void;

const INVALID_DB_CHARS = /[/\\. "$*<>:|?\0]/;

export function assertValidDbName(name: string): void {
  if (typeof name !== 'string' || name === '' || name.length >= 64 || INVALID_DB_CHARS.test(name)) {
    throw new CommandError('InvalidNamespace', `Invalid database name: '${String(name)}'`);
  }
}

export function assertValidCollectionName(db: string, name: unknown): asserts name is string {
  if (typeof name !== 'string') {
    throw new CommandError('InvalidNamespace', `collection name has invalid type ${typeof name}`);
  }
  if (name === '' || name.includes('\0') || name.includes('$') || name.startsWith('.') || name.endsWith('.')) {
    throw new CommandError('InvalidNamespace', `Invalid collection name: ${db}.${name}`);
  }
}

/**
 * The in-memory storage engine: databases of collections. Every mutating method applies its change synchronously
 * (so each document write is atomic with respect to other connections) and hands a record to the journal sink.
 */
export class StorageEngine {
  readonly databases = new Map<string, Map<string, Collection>>();
  private sink: JournalSink | undefined;

  setJournalSink(sink: JournalSink | undefined): void {
    this.sink = sink;
  }

  getCollection(db: string, name: string): Collection | undefined {
    return this.databases.get(db)?.get(name);
  }

  requireCollection(db: string, name: string): Collection {
    const coll = this.getCollection(db, name);
    if (!coll) throw new CommandError('NamespaceNotFound', `ns does not exist: ${db}.${name}`);
    return coll;
  }

  /** Returns the collection, creating it implicitly (as inserts and upserts do). */
  ensureCollection(db: string, name: string): Collection {
    return this.getCollection(db, name) ?? this.createCollection(db, name, {});
  }

  createCollection(db: string, name: string, options: Doc): Collection {
    assertValidDbName(db);
    assertValidCollectionName(db, name);
    if (this.getCollection(db, name)) {
      throw new CommandError('NamespaceExists', `Collection ${db}.${name} already exists.`);
    }
    const coll = new Collection(db, name, options);
    this.attach(coll);
    this.sink?.({ op: 'create', db, coll: name, options, uuid: coll.uuid });
    return coll;
  }

  insertDocument(coll: Collection, doc: Doc): Doc {
    const stored = doc._id === undefined ? { _id: new ObjectId(), ...doc } : doc;
    assertValidId(stored._id);
    coll.insert(stored);
    this.sink?.({ op: 'put', db: coll.dbName, coll: coll.name, doc: stored });
    return stored;
  }

  replaceDocument(coll: Collection, previous: Doc, next: Doc): void {
    coll.replace(previous, next);
    this.sink?.({ op: 'put', db: coll.dbName, coll: coll.name, doc: next });
  }

  deleteDocument(coll: Collection, id: unknown): void {
    if (coll.remove(id)) this.sink?.({ op: 'del', db: coll.dbName, coll: coll.name, id });
  }

  dropCollection(db: string, name: string): Collection | undefined {
    const dbMap = this.databases.get(db);
    const coll = dbMap?.get(name);
    if (!dbMap || !coll) return undefined;
    dbMap.delete(name);
    if (dbMap.size === 0) this.databases.delete(db);
    this.sink?.({ op: 'drop', db, coll: name });
    return coll;
  }

  dropDatabase(db: string): void {
    if (this.databases.delete(db)) this.sink?.({ op: 'dropDb', db });
  }

  /** Returns true if a new index was built. */
  createIndex(coll: Collection, spec: IndexSpec): boolean {
    const created = coll.createIndex(spec);
    if (created) this.sink?.({ op: 'index', db: coll.dbName, coll: coll.name, spec });
    return created;
  }

  dropIndex(coll: Collection, name: string): void {
    coll.dropIndex(name);
    this.sink?.({ op: 'dropIndex', db: coll.dbName, coll: coll.name, name });
  }

  renameCollection(coll: Collection, toDb: string, toColl: string): void {
    assertValidDbName(toDb);
    assertValidCollectionName(toDb, toColl);
    const { dbName, name } = coll;
    this.detach(dbName, name);
    const moved = new Collection(toDb, toColl, coll.options, coll.uuid);
    for (const doc of coll.docs.values()) moved.put(doc);
    for (const index of coll.indexes.values()) moved.createIndex(index.spec, false);
    this.attach(moved);
    this.sink?.({ op: 'rename', db: dbName, coll: name, toDb, toColl });
  }

  /** Applies a journal record without logging it again (recovery). Unique rules are not re-checked. */
  applyRecord(record: JournalRecord): void {
    switch (record.op) {
      case 'create':
        if (!this.getCollection(record.db, record.coll)) {
          this.attach(new Collection(record.db, record.coll, record.options, record.uuid));
        }
        return;
      case 'put':
        this.ensureReplayCollection(record.db, record.coll).put(record.doc);
        return;
      case 'del':
        this.getCollection(record.db, record.coll)?.remove(record.id);
        return;
      case 'drop':
        this.detach(record.db, record.coll);
        return;
      case 'dropDb':
        this.databases.delete(record.db);
        return;
      case 'index': {
        const coll = this.ensureReplayCollection(record.db, record.coll);
        if (!coll.indexes.has(record.spec.name)) coll.createIndex(record.spec, false);
        return;
      }
      case 'dropIndex':
        this.getCollection(record.db, record.coll)?.indexes.delete(record.name);
        return;
      case 'rename': {
        const coll = this.getCollection(record.db, record.coll);
        if (coll) this.renameCollection(coll, record.toDb, record.toColl);
        return;
      }
    }
  }

  /**
   * Records that rebuild the current state. Captured synchronously: the document arrays hold references to
   * immutable stored documents, so the caller may serialise them later while writes continue.
   */
  captureState(): { header: JournalRecord[]; docs: { db: string; coll: string; docs: Doc[] }[] } {
    const header: JournalRecord[] = [];
    const docs: { db: string; coll: string; docs: Doc[] }[] = [];
    for (const [db, collections] of this.databases) {
      for (const coll of collections.values()) {
        header.push({ op: 'create', db, coll: coll.name, options: coll.options, uuid: coll.uuid });
        for (const index of coll.indexes.values()) header.push({ op: 'index', db, coll: coll.name, spec: index.spec });
        docs.push({ db, coll: coll.name, docs: [...coll.docs.values()] });
      }
    }
    return { header, docs };
  }

  private ensureReplayCollection(db: string, name: string): Collection {
    let coll = this.getCollection(db, name);
    if (!coll) this.attach((coll = new Collection(db, name)));
    return coll;
  }

  private attach(coll: Collection): void {
    let dbMap = this.databases.get(coll.dbName);
    if (!dbMap) this.databases.set(coll.dbName, (dbMap = new Map()));
    dbMap.set(coll.name, coll);
  }

  private detach(db: string, name: string): void {
    const dbMap = this.databases.get(db);
    dbMap?.delete(name);
    if (dbMap?.size === 0) this.databases.delete(db);
  }
}

function assertValidId(id: unknown): void {
  if (Array.isArray(id)) throw new CommandError('BadValue', "The '_id' value cannot be of type array");
  if (id instanceof RegExp) throw new CommandError('BadValue', "The '_id' value cannot be of type regex");
  if (id === undefined) throw new CommandError('BadValue', "The '_id' value cannot be undefined");
  if (isPlainObject(id) && Object.keys(id).some((key) => key.startsWith('$'))) {
    throw new CommandError('BadValue', "_id fields may not contain '$'-prefixed fields");
  }
}
