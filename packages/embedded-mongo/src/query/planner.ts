import { ProcessingMode, Query } from 'mingo';
import type { Collection } from '../storage/collection';
import { cloneValue, type Doc, isPlainObject } from '../values';
import { compileFilter, isSimpleScalar, QUERY_OPTIONS } from './matcher';

export { compileFilter, QUERY_OPTIONS } from './matcher';

export interface FindOptions {
  sort?: Doc;
  skip?: number;
  limit?: number;
  projection?: Doc;
}

const PROJECTING_OPTIONS = { ...QUERY_OPTIONS, processingMode: ProcessingMode.CLONE_INPUT };

/** Values that an index or the _id map can look up directly. */
const isLookupValue = isSimpleScalar;

/** The lookup values a filter condition pins a field to, or undefined when it is not a pure equality/$in. */
function equalityValues(condition: unknown): unknown[] | undefined {
  if (isLookupValue(condition)) return [condition];
  if (!isPlainObject(condition)) return undefined;
  const keys = Object.keys(condition);
  if (keys.length !== 1) return undefined;
  if (keys[0] === '$eq' && isLookupValue(condition.$eq)) return [condition.$eq];
  if (keys[0] === '$in' && Array.isArray(condition.$in) && condition.$in.every(isLookupValue)) return condition.$in;
  return undefined;
}

/**
 * Narrows the documents a filter can match using the _id map or a single-field index; the filter itself is still
 * applied afterwards, so this only has to return a superset.
 */
export function candidateDocuments(coll: Collection, filter: Doc): Iterable<Doc> {
  const idValues = equalityValues(filter._id);
  if (idValues) {
    const docs: Doc[] = [];
    for (const id of idValues) {
      const doc = coll.getById(id);
      if (doc && !docs.includes(doc)) docs.push(doc);
    }
    return docs;
  }
  for (const field of Object.keys(filter)) {
    if (field.startsWith('$')) continue;
    const values = equalityValues(filter[field]);
    if (!values) continue;
    for (const index of coll.indexes.values()) {
      if (!index.supportsEquality || index.fields[0] !== field) continue;
      const ids = new Set<string>();
      for (const value of values) for (const id of index.lookup(value)) ids.add(id);
      const docs: Doc[] = [];
      for (const id of ids) {
        const doc = coll.docs.get(id);
        if (doc) docs.push(doc);
      }
      return docs;
    }
  }
  return coll.docs.values();
}

/** Runs a find over a collection: filter, then sort, skip, limit and projection with MongoDB semantics. */
export function findDocuments(coll: Collection | undefined, filter: Doc, options: FindOptions = {}): Doc[] {
  if (!coll) return [];
  const candidates = candidateDocuments(coll, filter);
  const hasSort = options.sort !== undefined && Object.keys(options.sort).length > 0;
  const hasProjection = options.projection !== undefined && Object.keys(options.projection).length > 0;
  if (!hasSort && !hasProjection) {
    const matches = compileFilter(filter);
    const skip = options.skip ?? 0;
    const limit = options.limit || Infinity;
    const out: Doc[] = [];
    let skipped = 0;
    for (const doc of candidates) {
      if (!matches(doc)) continue;
      if (skipped < skip) {
        skipped++;
        continue;
      }
      out.push(doc);
      if (out.length >= limit) break;
    }
    return out;
  }
  // mingo projections edit documents in place: let it work on copies of the matches.
  const query = new Query(filter, hasProjection ? PROJECTING_OPTIONS : QUERY_OPTIONS);
  let cursor = query.find<Doc>(Array.isArray(candidates) ? candidates : [...candidates], options.projection ?? {});
  if (hasSort) cursor = cursor.sort(options.sort as Doc);
  if (options.skip) cursor = cursor.skip(options.skip);
  if (options.limit) cursor = cursor.limit(options.limit);
  return cursor.all();
}

/** Applies a find-style projection to one document. */
export function projectDocument(doc: Doc, projection: Doc | undefined): Doc {
  if (!projection || Object.keys(projection).length === 0) return doc;
  return new Query({}, QUERY_OPTIONS).find<Doc>([cloneValue(doc)], projection).all()[0] ?? doc;
}
