import { CommandError, toCommandError } from '../errors';
import { candidateDocuments, compileFilter, findDocuments, projectDocument } from '../query/planner';
import { applyUpdate, buildUpsertDocument, validateUpdateSpec } from '../query/update';
import type { Collection } from '../storage/collection';
import { deepEqual, type Doc, isPlainObject } from '../values';
import { type CommandContext, type CommandHandler, docArray, optionalDoc, targetCollection } from './context';

/**
 * Runs each statement of a batch write, collecting MongoDB-shaped write errors. Ordered batches stop at the first
 * error; unordered ones carry on. Replies only once the changes are durable.
 */
async function runStatements<T>(
  cmd: Doc,
  ctx: CommandContext,
  statements: T[],
  run: (statement: T, index: number) => void,
): Promise<Doc[]> {
  const ordered = cmd.ordered !== false;
  const writeErrors: Doc[] = [];
  for (let i = 0; i < statements.length; i++) {
    try {
      run(statements[i] as T, i);
    } catch (error) {
      writeErrors.push(toCommandError(error).toWriteError(i));
      if (ordered) break;
    }
  }
  await ctx.sync();
  return writeErrors;
}

function withWriteErrors(reply: Doc, writeErrors: Doc[]): Doc {
  if (writeErrors.length) reply.writeErrors = writeErrors;
  reply.ok = 1;
  return reply;
}

const insert: CommandHandler = async (cmd, ctx) => {
  const name = targetCollection(cmd, 'insert');
  const documents = docArray(cmd, 'documents');
  let n = 0;
  let coll: Collection | undefined;
  const writeErrors = await runStatements(cmd, ctx, documents, (doc) => {
    coll ??= ctx.engine.ensureCollection(ctx.db, name);
    ctx.engine.insertDocument(coll, doc);
    n++;
  });
  return withWriteErrors({ n }, writeErrors);
};

interface UpdateStatement extends Doc {
  q: Doc;
  u: Doc | Doc[];
  upsert?: boolean;
  multi?: boolean;
  arrayFilters?: Doc[];
}

function parseUpdateStatement(raw: Doc): UpdateStatement {
  if (!isPlainObject(raw.q))
    throw new CommandError('TypeMismatch', "BSON field 'update.updates.q' is missing or not an object");
  validateUpdateSpec(raw.u);
  if (raw.arrayFilters !== undefined && !(Array.isArray(raw.arrayFilters) && raw.arrayFilters.every(isPlainObject))) {
    throw new CommandError('TypeMismatch', "BSON field 'arrayFilters' must be an array of objects");
  }
  return raw as UpdateStatement;
}

interface UpdateOutcome {
  matched: number;
  modified: number;
  upsertedId?: unknown;
  /** Before/after images of the single affected document (for findAndModify). */
  before?: Doc;
  after?: Doc;
}

/** Applies one update statement to the matching documents (or upserts). */
function executeUpdate(ctx: CommandContext, collName: string, statement: UpdateStatement, sort?: Doc): UpdateOutcome {
  const { q: query, u: update, arrayFilters } = statement;
  const coll = ctx.engine.getCollection(ctx.db, collName);
  const outcome: UpdateOutcome = { matched: 0, modified: 0 };
  if (coll) {
    const targets = statement.multi ? findDocuments(coll, query) : findDocuments(coll, query, { sort, limit: 1 });
    for (const doc of targets) {
      const next = applyUpdate(doc, update, { query, arrayFilters, inserting: false });
      outcome.matched++;
      outcome.before = doc;
      outcome.after = doc;
      if (deepEqual(doc, next)) continue;
      ctx.engine.replaceDocument(coll, doc, next);
      outcome.modified++;
      outcome.after = next;
    }
  }
  if (outcome.matched === 0 && statement.upsert) {
    const target = coll ?? ctx.engine.ensureCollection(ctx.db, collName);
    const inserted = ctx.engine.insertDocument(target, buildUpsertDocument(query, update, arrayFilters));
    outcome.upsertedId = inserted._id;
    outcome.after = inserted;
  }
  return outcome;
}

const update: CommandHandler = async (cmd, ctx) => {
  const name = targetCollection(cmd, 'update');
  const statements = docArray(cmd, 'updates');
  let n = 0;
  let nModified = 0;
  const upserted: Doc[] = [];
  const writeErrors = await runStatements(cmd, ctx, statements, (raw, index) => {
    const outcome = executeUpdate(ctx, name, parseUpdateStatement(raw));
    n += outcome.matched;
    nModified += outcome.modified;
    if (outcome.upsertedId !== undefined) {
      n++;
      upserted.push({ index, _id: outcome.upsertedId });
    }
  });
  const reply: Doc = { n, nModified };
  if (upserted.length) reply.upserted = upserted;
  return withWriteErrors(reply, writeErrors);
};

const deleteCommand: CommandHandler = async (cmd, ctx) => {
  const name = targetCollection(cmd, 'delete');
  const statements = docArray(cmd, 'deletes');
  let n = 0;
  const writeErrors = await runStatements(cmd, ctx, statements, (statement) => {
    if (!isPlainObject(statement.q)) throw new CommandError('TypeMismatch', "BSON field 'delete.deletes.q' is missing");
    const limit = statement.limit ?? 0;
    if (limit !== 0 && limit !== 1)
      throw new CommandError('BadValue', `The limit field in delete objects must be 0 or 1. Got ${String(limit)}`);
    const coll = ctx.engine.getCollection(ctx.db, name);
    if (!coll) return;
    const matches = compileFilter(statement.q);
    const victims: Doc[] = [];
    for (const doc of candidateDocuments(coll, statement.q)) {
      if (!matches(doc)) continue;
      victims.push(doc);
      if (limit === 1) break;
    }
    for (const doc of victims) ctx.engine.deleteDocument(coll, doc._id);
    n += victims.length;
  });
  return withWriteErrors({ n }, writeErrors);
};

const findAndModify: CommandHandler = async (cmd, ctx) => {
  const name = targetCollection(cmd, Object.keys(cmd)[0] as string);
  const query = optionalDoc(cmd, 'query') ?? {};
  const sort = optionalDoc(cmd, 'sort');
  const fields = optionalDoc(cmd, 'fields');
  const returnNew = cmd.new === true;
  let reply: Doc;
  if (cmd.remove === true) {
    if (cmd.update !== undefined)
      throw new CommandError('FailedToParse', 'Cannot specify both an update and remove=true');
    const coll = ctx.engine.getCollection(ctx.db, name);
    const victim = coll ? findDocuments(coll, query, { sort, limit: 1 })[0] : undefined;
    if (coll && victim) ctx.engine.deleteDocument(coll, victim._id);
    reply = { lastErrorObject: { n: victim ? 1 : 0 }, value: victim ? projectDocument(victim, fields) : null, ok: 1 };
  } else {
    if (cmd.update === undefined)
      throw new CommandError('FailedToParse', 'Either an update or remove=true must be specified');
    const statement = parseUpdateStatement({
      q: query,
      u: cmd.update as Doc,
      upsert: cmd.upsert === true,
      arrayFilters: cmd.arrayFilters as Doc[] | undefined,
    });
    const outcome = executeUpdate(ctx, name, statement, sort);
    const upserted = outcome.upsertedId !== undefined;
    // "before" of an upsert is the document that did not exist.
    const image = returnNew ? outcome.after : upserted ? undefined : outcome.before;
    const lastErrorObject: Doc = { n: upserted ? 1 : outcome.matched, updatedExisting: outcome.matched > 0 };
    if (upserted) lastErrorObject.upserted = outcome.upsertedId;
    reply = { lastErrorObject, value: image ? projectDocument(image, fields) : null, ok: 1 };
  }
  await ctx.sync();
  return reply;
};

export const writeCommands: Record<string, CommandHandler> = {
  insert,
  update,
  delete: deleteCommand,
  findAndModify,
  findandmodify: findAndModify,
};
