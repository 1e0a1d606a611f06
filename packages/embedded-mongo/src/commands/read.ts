import { Aggregator } from 'mingo';
import { cursorReply } from '../cursors';
import { CommandError } from '../errors';
import { candidateDocuments, compileFilter, findDocuments, QUERY_OPTIONS } from '../query/planner';
import { cloneValue, collectPathValues, type Doc, isPlainObject, keyOf } from '../values';
import { type CommandHandler, nonNegative, optionalDoc, optionalNumber, targetCollection } from './context';

const find: CommandHandler = (cmd, ctx) => {
  const name = targetCollection(cmd, 'find');
  const filter = optionalDoc(cmd, 'filter') ?? {};
  const rawLimit = optionalNumber(cmd, 'limit') ?? 0;
  const docs = findDocuments(ctx.engine.getCollection(ctx.db, name), filter, {
    sort: optionalDoc(cmd, 'sort'),
    projection: optionalDoc(cmd, 'projection'),
    skip: nonNegative(optionalNumber(cmd, 'skip'), 'skip'),
    limit: Math.abs(rawLimit),
  });
  const batchSize = nonNegative(optionalNumber(cmd, 'batchSize'), 'batchSize');
  const singleBatch = cmd.singleBatch === true || rawLimit < 0;
  const ns = `${ctx.db}.${name}`;
  return cursorReply(ns, ctx.cursors.open(ns, docs, batchSize, singleBatch), 'firstBatch');
};

const getMore: CommandHandler = (cmd, ctx) => {
  const collection = cmd.collection;
  if (typeof collection !== 'string')
    throw new CommandError('TypeMismatch', "BSON field 'getMore.collection' is missing");
  const ns = `${ctx.db}.${collection}`;
  const batchSize = nonNegative(optionalNumber(cmd, 'batchSize'), 'batchSize');
  return cursorReply(ns, ctx.cursors.getMore(cmd.getMore, ns, batchSize), 'nextBatch');
};

const killCursors: CommandHandler = (cmd, ctx) => {
  if (!Array.isArray(cmd.cursors))
    throw new CommandError('TypeMismatch', "BSON field 'killCursors.cursors' is missing");
  const { killed, notFound } = ctx.cursors.kill(cmd.cursors);
  return { cursorsKilled: killed, cursorsNotFound: notFound, cursorsAlive: [], cursorsUnknown: [], ok: 1 };
};

const count: CommandHandler = (cmd, ctx) => {
  const name = targetCollection(cmd, 'count');
  const query = optionalDoc(cmd, 'query') ?? {};
  const coll = ctx.engine.getCollection(ctx.db, name);
  const skip = nonNegative(optionalNumber(cmd, 'skip'), 'skip') ?? 0;
  const limit = Math.abs(optionalNumber(cmd, 'limit') ?? 0);
  let n = 0;
  if (coll && Object.keys(query).length === 0) n = coll.docs.size;
  else if (coll) {
    const matches = compileFilter(query);
    for (const doc of candidateDocuments(coll, query)) if (matches(doc)) n++;
  }
  n = Math.max(0, n - skip);
  return { n: limit ? Math.min(n, limit) : n, ok: 1 };
};

const distinct: CommandHandler = (cmd, ctx) => {
  const name = targetCollection(cmd, 'distinct');
  const key = cmd.key;
  if (typeof key !== 'string' || key === '')
    throw new CommandError('TypeMismatch', "BSON field 'distinct.key' is missing or not a string");
  const seen = new Map<string, unknown>();
  for (const doc of findDocuments(ctx.engine.getCollection(ctx.db, name), optionalDoc(cmd, 'query') ?? {})) {
    for (const value of collectPathValues(doc, key)) {
      if (value !== undefined && !seen.has(keyOf(value))) seen.set(keyOf(value), value);
    }
  }
  return { values: [...seen.values()], ok: 1 };
};

const UNSUPPORTED_STAGES = [
  '$out',
  '$merge',
  '$currentOp',
  '$listSessions',
  '$changeStream',
  '$collStats',
  '$indexStats',
];

const aggregate: CommandHandler = (cmd, ctx) => {
  const target = cmd.aggregate;
  const pipeline = cmd.pipeline;
  if (!Array.isArray(pipeline) || !pipeline.every(isPlainObject)) {
    throw new CommandError('TypeMismatch', "'pipeline' option must be specified as an array");
  }
  for (const stage of pipeline) {
    const stageName = Object.keys(stage)[0] ?? '';
    if (UNSUPPORTED_STAGES.includes(stageName)) {
      throw new CommandError('BadValue', `${stageName} is not supported by the embedded MongoDB server`);
    }
  }
  if (cmd.explain === true)
    throw new CommandError('BadValue', 'explain is not supported by the embedded MongoDB server');
  const cursorOptions = optionalDoc(cmd, 'cursor');
  if (!cursorOptions)
    throw new CommandError(
      'FailedToParse',
      "The 'cursor' option is required, except for aggregate with the explain argument",
    );
  let source: Doc[] = [];
  if (typeof target === 'string') {
    const coll = ctx.engine.getCollection(ctx.db, target);
    const first = pipeline[0];
    // A leading $match can use the _id map/indexes to narrow what the pipeline reads.
    const narrowed =
      coll && isPlainObject(first?.$match) ? candidateDocuments(coll, first.$match) : coll?.docs.values();
    source = narrowed ? [...narrowed] : [];
  } else if (target !== 1) {
    throw new CommandError('TypeMismatch', "BSON field 'aggregate' must be a collection name or 1");
  }
  const aggregator = new Aggregator(pipeline, {
    ...QUERY_OPTIONS,
    // Stages may rewrite documents in place: work on copies so stored documents stay untouched.
    collectionResolver: (from) => [...(ctx.engine.getCollection(ctx.db, from)?.docs.values() ?? [])].map(cloneValue),
    variables: optionalDoc(cmd, 'let'),
  });
  const results = aggregator.run<Doc>(source.map(cloneValue));
  const batchSize = nonNegative(optionalNumber(cursorOptions, 'batchSize'), 'batchSize');
  const ns = typeof target === 'string' ? `${ctx.db}.${target}` : `${ctx.db}.$cmd.aggregate`;
  return cursorReply(ns, ctx.cursors.open(ns, results, batchSize), 'firstBatch');
};

export const readCommands: Record<string, CommandHandler> = {
  find,
  getMore,
  killCursors,
  count,
  distinct,
  aggregate,
};
