import { BSON } from 'bson';
import { Query } from 'mingo';
import { cursorReply } from '../cursors';
import { CommandError } from '../errors';
import { QUERY_OPTIONS } from '../query/planner';
import { assertValidCollectionName, assertValidDbName } from '../storage/engine';
import { ID_INDEX_NAME, ID_INDEX_SPEC, normaliseIndexSpec } from '../storage/indexes';
import { type Doc, isPlainObject, keyOf } from '../values';
import { type CommandHandler, optionalDoc, optionalNumber, targetCollection, withoutGenericFields } from './context';

const create: CommandHandler = async (cmd, ctx) => {
  const name = targetCollection(cmd, 'create');
  const options = withoutGenericFields(cmd);
  delete options.create;
  ctx.engine.createCollection(ctx.db, name, options);
  await ctx.sync();
  return { ok: 1 };
};

const drop: CommandHandler = async (cmd, ctx) => {
  const name = targetCollection(cmd, 'drop');
  const dropped = ctx.engine.dropCollection(ctx.db, name);
  await ctx.sync();
  if (!dropped) return { ok: 1 };
  return { nIndexesWas: dropped.indexes.size + 1, ns: dropped.ns, ok: 1 };
};

const dropDatabase: CommandHandler = async (_cmd, ctx) => {
  ctx.engine.dropDatabase(ctx.db);
  await ctx.sync();
  return { dropped: ctx.db, ok: 1 };
};

function matchesFilter(filter: Doc | undefined): (doc: Doc) => boolean {
  if (!filter || Object.keys(filter).length === 0) return () => true;
  const query = new Query(filter, QUERY_OPTIONS);
  return (doc) => query.test(doc);
}

const listCollections: CommandHandler = (cmd, ctx) => {
  const filter = matchesFilter(optionalDoc(cmd, 'filter'));
  const nameOnly = cmd.nameOnly === true;
  const entries: Doc[] = [];
  for (const coll of ctx.engine.databases.get(ctx.db)?.values() ?? []) {
    const entry: Doc = nameOnly
      ? { name: coll.name, type: 'collection' }
      : {
          name: coll.name,
          type: 'collection',
          options: coll.options,
          info: { readOnly: false, uuid: coll.uuid },
          idIndex: ID_INDEX_SPEC,
        };
    if (filter(entry)) entries.push(entry);
  }
  const batchSize = optionalNumber(optionalDoc(cmd, 'cursor') ?? {}, 'batchSize');
  const ns = `${ctx.db}.$cmd.listCollections`;
  return cursorReply(ns, ctx.cursors.open(ns, entries, batchSize), 'firstBatch');
};

const listDatabases: CommandHandler = (cmd, ctx) => {
  const filter = matchesFilter(optionalDoc(cmd, 'filter'));
  const databases: Doc[] = [];
  let totalSize = 0;
  for (const [name, collections] of ctx.engine.databases) {
    let sizeOnDisk = 0;
    for (const coll of collections.values())
      for (const doc of coll.docs.values()) sizeOnDisk += BSON.calculateObjectSize(doc);
    const entry: Doc = cmd.nameOnly === true ? { name } : { name, sizeOnDisk, empty: sizeOnDisk === 0 };
    if (!filter(entry)) continue;
    databases.push(entry);
    totalSize += sizeOnDisk;
  }
  if (cmd.nameOnly === true) return { databases, ok: 1 };
  return { databases, totalSize, totalSizeMb: Math.floor(totalSize / (1024 * 1024)), ok: 1 };
};

const createIndexes: CommandHandler = async (cmd, ctx) => {
  const name = targetCollection(cmd, 'createIndexes');
  if (!Array.isArray(cmd.indexes) || cmd.indexes.length === 0) {
    throw new CommandError('BadValue', "Must specify at least one index to create in 'indexes'");
  }
  const specs = cmd.indexes.map(normaliseIndexSpec);
  const existed = ctx.engine.getCollection(ctx.db, name);
  const coll = existed ?? ctx.engine.ensureCollection(ctx.db, name);
  const before = coll.indexes.size + 1;
  let created = 0;
  try {
    for (const spec of specs) if (ctx.engine.createIndex(coll, spec)) created++;
  } finally {
    await ctx.sync();
  }
  const reply: Doc = {
    createdCollectionAutomatically: !existed,
    numIndexesBefore: before,
    numIndexesAfter: coll.indexes.size + 1,
  };
  if (created === 0) reply.note = 'all indexes already exist';
  reply.ok = 1;
  return reply;
};

const listIndexes: CommandHandler = (cmd, ctx) => {
  const name = targetCollection(cmd, 'listIndexes');
  const coll = ctx.engine.requireCollection(ctx.db, name);
  const batchSize = optionalNumber(optionalDoc(cmd, 'cursor') ?? {}, 'batchSize');
  const ns = `${ctx.db}.$cmd.listIndexes.${name}`;
  return cursorReply(ns, ctx.cursors.open(ns, coll.indexSpecs(), batchSize), 'firstBatch');
};

const dropIndexes: CommandHandler = async (cmd, ctx) => {
  const name = targetCollection(cmd, Object.keys(cmd)[0] as string);
  const coll = ctx.engine.requireCollection(ctx.db, name);
  const nIndexesWas = coll.indexes.size + 1;
  const target = cmd.index;
  let names: string[];
  if (target === '*') names = [...coll.indexes.keys()];
  else if (typeof target === 'string') names = [target];
  else if (Array.isArray(target) && target.every((n) => typeof n === 'string')) names = target;
  else if (isPlainObject(target)) {
    const match = coll.indexSpecs().find((spec) => keyOf(spec.key) === keyOf(target));
    if (!match) throw new CommandError('IndexNotFound', `can't find index with key: ${JSON.stringify(target)}`);
    names = [match.name];
  } else {
    throw new CommandError('TypeMismatch', "BSON field 'dropIndexes.index' must be a string, an array or an object");
  }
  for (const indexName of names) {
    if (indexName !== ID_INDEX_NAME && !coll.indexes.has(indexName)) {
      throw new CommandError('IndexNotFound', `index not found with name [${indexName}]`);
    }
  }
  for (const indexName of names) ctx.engine.dropIndex(coll, indexName);
  await ctx.sync();
  return { nIndexesWas, ok: 1 };
};

function splitNamespace(ns: unknown, field: string): [string, string] {
  const dot = typeof ns === 'string' ? ns.indexOf('.') : -1;
  if (typeof ns !== 'string' || dot <= 0)
    throw new CommandError('InvalidNamespace', `Invalid namespace specified for '${field}'`);
  return [ns.slice(0, dot), ns.slice(dot + 1)];
}

const renameCollection: CommandHandler = async (cmd, ctx) => {
  if (ctx.db !== 'admin')
    throw new CommandError('IllegalOperation', 'renameCollection may only be run against the admin database.');
  const [fromDb, fromName] = splitNamespace(cmd.renameCollection, 'renameCollection');
  const [toDb, toName] = splitNamespace(cmd.to, 'to');
  assertValidDbName(toDb);
  assertValidCollectionName(toDb, toName);
  const source = ctx.engine.requireCollection(fromDb, fromName);
  if (ctx.engine.getCollection(toDb, toName)) {
    if (cmd.dropTarget !== true) throw new CommandError('NamespaceExists', 'target namespace exists');
    ctx.engine.dropCollection(toDb, toName);
  }
  ctx.engine.renameCollection(source, toDb, toName);
  await ctx.sync();
  return { ok: 1 };
};

const collMod: CommandHandler = (cmd, ctx) => {
  const name = targetCollection(cmd, 'collMod');
  ctx.engine.requireCollection(ctx.db, name);
  return { ok: 1 };
};

export const ddlCommands: Record<string, CommandHandler> = {
  create,
  drop,
  dropDatabase,
  listCollections,
  listDatabases,
  createIndexes,
  listIndexes,
  dropIndexes,
  deleteIndexes: dropIndexes,
  renameCollection,
  collMod,
};
