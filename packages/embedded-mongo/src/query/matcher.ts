import { ObjectId } from 'bson';
import { Query } from 'mingo';
import { type Doc, isPlainObject, keyOf } from '../values';

/** mingo options shared by every query and pipeline. */
export const QUERY_OPTIONS = { idKey: '_id' } as const;

export type Matcher = (doc: Doc) => boolean;

type Comparison = '$eq' | '$ne' | '$gt' | '$gte' | '$lt' | '$lte';
const COMPARISONS = new Set<string>(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte']);

interface SimpleCondition {
  field: string;
  op: Comparison;
  value: string | number | boolean | Date | ObjectId;
}

/** Scalars that compare the same way in JavaScript and in MongoDB (within one type). */
export function isSimpleScalar(value: unknown): value is SimpleCondition['value'] {
  const type = typeof value;
  if (type === 'string' || type === 'boolean') return true;
  if (type === 'number') return !Number.isNaN(value);
  return value instanceof ObjectId || value instanceof Date;
}

/** Splits a filter into simple top-level comparisons, or returns undefined if it needs the full engine. */
function simpleConditions(filter: Doc): SimpleCondition[] | undefined {
  const conditions: SimpleCondition[] = [];
  for (const [field, condition] of Object.entries(filter)) {
    if (field.startsWith('$') || field.includes('.')) return undefined;
    if (isSimpleScalar(condition)) {
      conditions.push({ field, op: '$eq', value: condition });
      continue;
    }
    if (!isPlainObject(condition)) return undefined;
    const ops = Object.entries(condition);
    if (ops.length === 0) return undefined;
    for (const [op, value] of ops) {
      if (!COMPARISONS.has(op) || !isSimpleScalar(value)) return undefined;
      conditions.push({ field, op: op as Comparison, value });
    }
  }
  return conditions;
}

function typeClass(value: unknown): string {
  if (value instanceof Date) return 'date';
  if (value instanceof ObjectId) return 'objectid';
  return typeof value;
}

function orderable(value: SimpleCondition['value']): number | string {
  if (value instanceof Date) return value.getTime();
  if (value instanceof ObjectId) return value.toHexString();
  return value as number | string;
}

/**
 * Evaluates one simple condition against a scalar field value, with MongoDB's type bracketing (a numeric range
 * never matches a string). Returns undefined when the value is an array/object and mingo must decide.
 */
function evaluate(condition: SimpleCondition, actual: unknown): boolean | undefined {
  if (Array.isArray(actual) || isPlainObject(actual)) return undefined;
  if (actual !== undefined && actual !== null && !isSimpleScalar(actual)) return undefined;
  const equal = actual !== undefined && actual !== null && keyOf(actual) === keyOf(condition.value);
  switch (condition.op) {
    case '$eq':
      return equal;
    case '$ne':
      return !equal;
    default: {
      if (actual === undefined || actual === null || typeClass(actual) !== typeClass(condition.value)) return false;
      const a = orderable(actual as SimpleCondition['value']);
      const b = orderable(condition.value);
      if (condition.op === '$gt') return a > b;
      if (condition.op === '$gte') return a >= b;
      if (condition.op === '$lt') return a < b;
      return a <= b;
    }
  }
}

/**
 * Compiles a filter into a predicate. Conjunctions of top-level comparisons against scalars (the shape of
 * find-by-id and conditional updates) are evaluated directly; everything else, and any document holding arrays or
 * sub-documents in those fields, goes through mingo.
 */
export function compileFilter(filter: Doc): Matcher {
  const conditions = simpleConditions(filter);
  let query: Query | undefined;
  const full: Matcher = (doc) => (query ??= new Query(filter, QUERY_OPTIONS)).test(doc);
  if (!conditions) return full;
  if (conditions.length === 0) return () => true;
  return (doc) => {
    for (const condition of conditions) {
      const result = evaluate(condition, doc[condition.field]);
      if (result === undefined) return full(doc);
      if (!result) return false;
    }
    return true;
  };
}
