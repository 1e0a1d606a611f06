import { Binary, UUID } from 'bson';
import { CommandError } from '../errors';
import { type Doc, keyOf } from '../values';
import {
  duplicateKeyError,
  ID_INDEX_NAME,
  ID_INDEX_SPEC,
  type IndexSpec,
  sameIndexDefinition,
  SecondaryIndex,
} from './indexes';

/**
 * One collection: documents keyed by the canonical form of their _id (O(1) lookups, insertion order kept as the
 * natural order) plus secondary indexes. Stored documents are never mutated in place: updates swap in a new object,
 * so snapshots and open cursors can hold references safely.
 */
export class Collection {
  readonly docs = new Map<string, Doc>();
  readonly indexes = new Map<string, SecondaryIndex>();
  readonly uuid: Binary;

  constructor(
    readonly dbName: string,
    public name: string,
    public options: Doc = {},
    uuid?: Binary,
  ) {
    this.uuid = uuid ?? new UUID();
  }

  get ns(): string {
    return `${this.dbName}.${this.name}`;
  }

  getById(id: unknown): Doc | undefined {
    return this.docs.get(keyOf(id));
  }

  /** Inserts a document that already carries an _id; throws a duplicate-key CommandError on conflict. */
  insert(doc: Doc): void {
    const idKey = keyOf(doc._id);
    if (this.docs.has(idKey)) throw duplicateKeyError(this.ns, ID_INDEX_NAME, { _id: 1 }, { _id: doc._id });
    for (const index of this.indexes.values()) index.assertNoConflict(doc, idKey);
    this.docs.set(idKey, doc);
    for (const index of this.indexes.values()) index.add(doc, idKey);
  }

  /** Replaces the stored version of a document (same _id); all unique checks happen before anything changes. */
  replace(previous: Doc, next: Doc): void {
    const idKey = keyOf(previous._id);
    if (keyOf(next._id) !== idKey) {
      throw new CommandError(
        'ImmutableField',
        "Performing an update on the path '_id' would modify the immutable field '_id'",
      );
    }
    for (const index of this.indexes.values()) index.assertNoConflict(next, idKey);
    for (const index of this.indexes.values()) index.remove(previous, idKey);
    this.docs.set(idKey, next);
    for (const index of this.indexes.values()) index.add(next, idKey);
  }

  /** Inserts or replaces by _id without uniqueness checks: used when replaying the journal. */
  put(doc: Doc): void {
    const previous = this.getById(doc._id);
    if (previous) {
      const idKey = keyOf(doc._id);
      for (const index of this.indexes.values()) index.remove(previous, idKey);
      this.docs.set(idKey, doc);
      for (const index of this.indexes.values()) index.add(doc, idKey);
    } else {
      this.docs.set(keyOf(doc._id), doc);
      for (const index of this.indexes.values()) index.add(doc, keyOf(doc._id));
    }
  }

  remove(id: unknown): Doc | undefined {
    const idKey = keyOf(id);
    const doc = this.docs.get(idKey);
    if (!doc) return undefined;
    this.docs.delete(idKey);
    for (const index of this.indexes.values()) index.remove(doc, idKey);
    return doc;
  }

  indexSpecs(): IndexSpec[] {
    return [ID_INDEX_SPEC, ...[...this.indexes.values()].map((index) => index.spec)];
  }

  /**
   * Adds an index, building it over the existing documents. Returns false when an identical index exists already.
   * `enforceUnique` is off when replaying the journal so that recovery never fails.
   */
  createIndex(spec: IndexSpec, enforceUnique = true): boolean {
    if (spec.name === ID_INDEX_NAME || keyOf(spec.key) === keyOf({ _id: 1 })) return false;
    const sameName = this.indexes.get(spec.name);
    if (sameName) {
      if (sameIndexDefinition(sameName.spec, spec)) return false;
      throw new CommandError(
        'IndexKeySpecsConflict',
        `An existing index has the same name as the requested index. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(sameName.spec)}`,
      );
    }
    for (const existing of this.indexes.values()) {
      if (sameIndexDefinition(existing.spec, spec)) {
        throw new CommandError(
          'IndexOptionsConflict',
          `Index already exists with a different name: ${existing.spec.name}`,
        );
      }
    }
    const index = new SecondaryIndex(spec, this.ns);
    for (const [idKey, doc] of this.docs) {
      if (enforceUnique) index.assertNoConflict(doc, idKey);
      index.add(doc, idKey);
    }
    this.indexes.set(spec.name, index);
    return true;
  }

  dropIndex(name: string): void {
    if (name === ID_INDEX_NAME) throw new CommandError('InvalidOptions', 'cannot drop _id index');
    if (!this.indexes.delete(name)) throw new CommandError('IndexNotFound', `index not found with name [${name}]`);
  }
}
