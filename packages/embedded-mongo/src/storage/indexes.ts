import { Query } from 'mingo';
import { CommandError } from '../errors';
import { collectPathValues, type Doc, formatValue, isPlainObject, keyOf } from '../values';

/** An index specification as stored and reported by listIndexes. */
export interface IndexSpec extends Doc {
  v: number;
  key: Record<string, unknown>;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Doc;
  expireAfterSeconds?: number;
}

export const ID_INDEX_NAME = '_id_';
export const ID_INDEX_SPEC: IndexSpec = { v: 2, key: { _id: 1 }, name: ID_INDEX_NAME };

/** Options that make two index specs with the same key pattern different indexes. */
const IDENTITY_OPTIONS = ['unique', 'sparse', 'partialFilterExpression', 'expireAfterSeconds'] as const;

interface IndexEntry {
  key: string;
  values: unknown[];
}

/** Normalises and validates a createIndexes entry. */
export function normaliseIndexSpec(raw: unknown): IndexSpec {
  if (!isPlainObject(raw)) throw new CommandError('BadValue', 'index specification must be an object');
  const key = raw.key;
  if (!isPlainObject(key) || Object.keys(key).length === 0) {
    throw new CommandError('CannotCreateIndex', "Index key pattern must be a non-empty object ('key')");
  }
  for (const [field, direction] of Object.entries(key)) {
    const valid = direction === 1 || direction === -1 || typeof direction === 'string';
    if (!valid || field === '' || field.startsWith('$')) {
      throw new CommandError('CannotCreateIndex', `Values in the index key pattern are invalid: ${formatValue(key)}`);
    }
  }
  if (typeof raw.name !== 'string' || raw.name === '') {
    throw new CommandError('CannotCreateIndex', "The 'name' field is a required property of an index specification");
  }
  if (raw.partialFilterExpression !== undefined && !isPlainObject(raw.partialFilterExpression)) {
    throw new CommandError('CannotCreateIndex', "'partialFilterExpression' for an index must be a document");
  }
  const spec: IndexSpec = { ...raw, v: 2, key, name: raw.name };
  if (spec.unique === false) delete spec.unique;
  if (spec.sparse === false) delete spec.sparse;
  return spec;
}

/** True when two specs describe the same index (name aside). */
export function sameIndexDefinition(a: IndexSpec, b: IndexSpec): boolean {
  return (
    keyOf(a.key) === keyOf(b.key) &&
    IDENTITY_OPTIONS.every((option) => keyOf(a[option] ?? null) === keyOf(b[option] ?? null))
  );
}

/**
 * A secondary index: a map from canonical key to the ids of the documents carrying it. Handles compound and
 * multikey (array) fields, unique, sparse and partial indexes.
 */
export class SecondaryIndex {
  readonly fields: string[];
  readonly unique: boolean;
  /** Equality lookups only make sense for plain ascending/descending single-field indexes. */
  readonly supportsEquality: boolean;
  private readonly partialFilter: Query | undefined;
  private readonly entries = new Map<string, Set<string>>();

  constructor(
    readonly spec: IndexSpec,
    private readonly ns: string,
  ) {
    this.fields = Object.keys(spec.key);
    this.unique = spec.unique === true;
    this.partialFilter = spec.partialFilterExpression ? new Query(spec.partialFilterExpression, {}) : undefined;
    const directions = Object.values(spec.key);
    this.supportsEquality =
      this.fields.length === 1 && !this.partialFilter && directions.every((d) => d === 1 || d === -1);
  }

  /** The index entries of a document, or none when sparse/partial rules exclude it. */
  entriesOf(doc: Doc): IndexEntry[] {
    if (this.partialFilter && !this.partialFilter.test(doc)) return [];
    const perField = this.fields.map((field) => collectPathValues(doc, field));
    if (this.spec.sparse && perField.every((values) => values.every((v) => v === undefined))) return [];
    let combos: unknown[][] = [[]];
    for (const values of perField) {
      const next: unknown[][] = [];
      for (const combo of combos) for (const value of values) next.push([...combo, value ?? null]);
      combos = next;
    }
    const seen = new Set<string>();
    const entries: IndexEntry[] = [];
    for (const values of combos) {
      const key = values.length === 1 ? keyOf(values[0]) : JSON.stringify(values.map(keyOf));
      if (seen.has(key)) continue;
      seen.add(key);
      entries.push({ key, values });
    }
    return entries;
  }

  /** Throws MongoDB's duplicate-key error if `doc` (with id key `idKey`) would violate this unique index. */
  assertNoConflict(doc: Doc, idKey: string): void {
    if (!this.unique) return;
    for (const entry of this.entriesOf(doc)) {
      const holders = this.entries.get(entry.key);
      if (!holders) continue;
      for (const holder of holders) {
        if (holder !== idKey) throw this.duplicateKeyError(entry.values);
      }
    }
  }

  duplicateKeyError(values: unknown[]): CommandError {
    const keyValue: Doc = {};
    this.fields.forEach((field, i) => (keyValue[field] = values[i] ?? null));
    return duplicateKeyError(this.ns, this.spec.name, this.spec.key, keyValue);
  }

  add(doc: Doc, idKey: string): void {
    for (const { key } of this.entriesOf(doc)) {
      let holders = this.entries.get(key);
      if (!holders) this.entries.set(key, (holders = new Set()));
      holders.add(idKey);
    }
  }

  remove(doc: Doc, idKey: string): void {
    for (const { key } of this.entriesOf(doc)) {
      const holders = this.entries.get(key);
      if (!holders) continue;
      holders.delete(idKey);
      if (holders.size === 0) this.entries.delete(key);
    }
  }

  /** Ids of the documents whose (single) indexed field equals `value`. */
  lookup(value: unknown): Iterable<string> {
    return this.entries.get(keyOf(value)) ?? [];
  }
}

export function duplicateKeyError(ns: string, indexName: string, keyPattern: Doc, keyValue: Doc): CommandError {
  return new CommandError(
    'DuplicateKey',
    `E11000 duplicate key error collection: ${ns} index: ${indexName} dup key: ${formatValue(keyValue)}`,
    { keyPattern, keyValue },
  );
}
