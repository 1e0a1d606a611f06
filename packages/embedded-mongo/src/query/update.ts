import { ObjectId } from 'bson';
import { Aggregator, update as applyOperators } from 'mingo';
import { CommandError } from '../errors';
import { cloneValue, type Doc, formatValue, getPath, isPlainObject, keyOf, setPath } from '../values';
import { QUERY_OPTIONS } from './planner';

export type UpdateSpec = Doc | Doc[];

const NUMERIC_OPERATORS = ['$inc', '$mul'] as const;

export function isOperatorUpdate(update: Doc): boolean {
  const keys = Object.keys(update);
  const operators = keys.filter((key) => key.startsWith('$'));
  if (operators.length > 0 && operators.length !== keys.length) {
    throw new CommandError('FailedToParse', 'Update document mixes update operators and plain fields');
  }
  return operators.length > 0;
}

export function validateUpdateSpec(update: unknown): asserts update is UpdateSpec {
  if (Array.isArray(update)) {
    if (!update.every(isPlainObject)) throw new CommandError('FailedToParse', 'Update pipeline stages must be objects');
    return;
  }
  if (!isPlainObject(update)) throw new CommandError('FailedToParse', 'Update argument must be an object or pipeline');
  if (isOperatorUpdate(update)) {
    for (const [operator, fields] of Object.entries(update)) {
      if (!isPlainObject(fields)) {
        throw new CommandError(
          'FailedToParse',
          `Modifiers operate on fields but we found type ${typeof fields} instead. For example: {$mod: {<field>: ...}} not {${operator}: ${formatValue(fields)}}`,
        );
      }
    }
  } else {
    for (const key of Object.keys(update)) {
      if (key.startsWith('$'))
        throw new CommandError('BadValue', `The dollar ($) prefixed field '${key}' is not valid`);
    }
  }
}

/** mongod refuses arithmetic on non-numbers; mingo would silently skip it. */
function assertNumericOperands(doc: Doc, update: Doc): void {
  for (const operator of NUMERIC_OPERATORS) {
    const fields = update[operator];
    if (!isPlainObject(fields)) continue;
    for (const [path, operand] of Object.entries(fields)) {
      if (typeof operand !== 'number' && typeof operand !== 'bigint') {
        const verb = operator === '$inc' ? 'increment' : 'multiply';
        throw new CommandError(
          'TypeMismatch',
          `Cannot ${verb} with non-numeric argument: {${path}: ${formatValue(operand)}}`,
        );
      }
      if (path.includes('$')) continue;
      const current = getPath(doc, path);
      if (current !== undefined && typeof current !== 'number' && typeof current !== 'bigint') {
        throw new CommandError(
          'TypeMismatch',
          `Cannot apply ${operator} to a value of non-numeric type. {_id: ${formatValue(doc._id)}} has the field '${path}' of non-numeric type ${current === null ? 'null' : typeof current}`,
        );
      }
    }
  }
}

/** Operators may only "set" _id to the value it already has. */
function assertIdUntouched(doc: Doc, operators: Doc): void {
  for (const [operator, fields] of Object.entries(operators)) {
    if (!isPlainObject(fields)) continue;
    for (const [path, value] of Object.entries(fields)) {
      if (path !== '_id' && !path.startsWith('_id.')) continue;
      if (operator === '$set' && path === '_id' && keyOf(value) === keyOf(doc._id)) continue;
      throw new CommandError(
        'ImmutableField',
        "Performing an update on the path '_id' would modify the immutable field '_id'",
      );
    }
  }
}

export interface ApplyUpdateOptions {
  query: Doc;
  arrayFilters?: Doc[];
  /** True when the update builds a document for an upsert: $setOnInsert applies. */
  inserting: boolean;
}

/**
 * Returns a new document: `doc` with the update applied. `doc` itself is left untouched (stored documents are
 * immutable). Throws ImmutableField if _id would change.
 */
export function applyUpdate(doc: Doc, update: UpdateSpec, options: ApplyUpdateOptions): Doc {
  let next: Doc;
  if (Array.isArray(update)) {
    next = new Aggregator(update, QUERY_OPTIONS).run<Doc>([cloneValue(doc)])[0] ?? {};
  } else if (!isOperatorUpdate(update)) {
    next = { _id: doc._id, ...update };
    if (update._id === undefined) next._id = doc._id;
  } else {
    const { $setOnInsert, ...operators } = update;
    if (options.inserting && isPlainObject($setOnInsert)) {
      operators.$set = { ...(isPlainObject(operators.$set) ? operators.$set : {}), ...$setOnInsert };
    }
    if (!options.inserting) assertIdUntouched(doc, operators);
    next = cloneValue(doc);
    if (Object.keys(operators).length > 0) {
      assertNumericOperands(next, operators);
      // mingo applies nothing to a document the condition rejects; an upsert's seed keeps only the query's
      // equalities, so a range condition (`{n: {$lt: 5}}`) would reject it: mongod applies the update regardless.
      const condition = options.inserting ? {} : options.query;
      applyOperators(next, operators, options.arrayFilters, condition, { cloneMode: 'deep' });
    }
  }
  if (!options.inserting && keyOf(next._id) !== keyOf(doc._id)) {
    throw new CommandError(
      'ImmutableField',
      "Performing an update on the path '_id' would modify the immutable field '_id'",
    );
  }
  return next;
}

/** Equality conditions of a query become the starting fields of an upserted document, as in mongod. */
function seedFromQuery(query: Doc, seed: Doc): void {
  for (const [field, condition] of Object.entries(query)) {
    if (field === '$and' && Array.isArray(condition)) {
      for (const clause of condition) if (isPlainObject(clause)) seedFromQuery(clause, seed);
      continue;
    }
    if (field.startsWith('$') || condition instanceof RegExp) continue;
    if (isPlainObject(condition) && Object.keys(condition).some((key) => key.startsWith('$'))) {
      if ('$eq' in condition) setPath(seed, field, cloneValue(condition.$eq));
      continue;
    }
    setPath(seed, field, cloneValue(condition));
  }
}

/** The document an upsert inserts when nothing matched. */
export function buildUpsertDocument(query: Doc, update: UpdateSpec, arrayFilters?: Doc[]): Doc {
  const seed: Doc = {};
  seedFromQuery(query, seed);
  let doc: Doc;
  if (!Array.isArray(update) && !isOperatorUpdate(update)) {
    doc = { ...update };
    if (doc._id === undefined && seed._id !== undefined) doc._id = seed._id;
  } else {
    doc = applyUpdate(seed, update, { query, arrayFilters, inserting: true });
  }
  const { _id, ...rest } = doc;
  return { _id: _id === undefined ? new ObjectId() : _id, ...rest };
}
