import { Binary, BSON, ObjectId } from 'bson';

export type Doc = Record<string, unknown>;

/**
 * Options for decoding client bytes. Int64 values that fit a double become numbers so mingo compares them
 * numerically; larger ones stay `Long` and round-trip bit-exact.
 */
export const DESERIALIZE_OPTIONS: BSON.DeserializeOptions = {
  promoteLongs: true,
  promoteValues: true,
  promoteBuffers: false,
  bsonRegExp: false,
  useBigInt64: false,
};

export function isPlainObject(value: unknown): value is Doc {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Deep copy of plain objects, arrays and dates; BSON value classes are immutable and shared. */
export function cloneValue<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(cloneValue) as T;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (!isPlainObject(value)) return value;
  const copy: Doc = {};
  for (const key of Object.keys(value)) copy[key] = cloneValue(value[key]);
  return copy as T;
}

/** BSON-aware equality that respects field order, as MongoDB does when comparing documents. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') {
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => deepEqual(item, b[i]));
  }
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  }
  if (isPlainObject(a) || isPlainObject(b)) {
    if (!isPlainObject(a) || !isPlainObject(b)) return false;
    const keysA = Object.keys(a);
    const keysB = Object.keys(b);
    if (keysA.length !== keysB.length) return false;
    return keysA.every((key, i) => key === keysB[i] && deepEqual(a[key], b[key]));
  }
  if ((a as object).constructor !== (b as object).constructor) return false;
  return keyOf(a) === keyOf(b);
}

/**
 * A canonical string for a value such that values MongoDB considers equal (1, 1.0, Long(1)) share a key.
 * Used by the _id map and index entries.
 */
export function keyOf(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return 's' + value;
    case 'number':
      return 'n' + (Object.is(value, -0) ? '0' : String(value));
    case 'bigint':
      return 'n' + String(value);
    case 'boolean':
      return value ? 'b1' : 'b0';
    case 'undefined':
      return 'z';
    case 'object':
      break;
    default:
      return 'f' + String(value);
  }
  if (value === null) return 'z';
  if (value instanceof ObjectId) return 'o' + value.toHexString();
  if (value instanceof Date) return 't' + String(value.getTime());
  if (Array.isArray(value)) return 'a' + JSON.stringify(value.map(keyOf));
  if (isPlainObject(value)) return 'd' + JSON.stringify(Object.keys(value).map((k) => [k, keyOf(value[k])]));
  if (value instanceof RegExp) return 'r' + String(value);
  if (value instanceof Binary) return 'x' + String(value.sub_type) + ':' + Buffer.from(value.buffer).toString('base64');
  const bsontype = (value as { _bsontype?: string })._bsontype;
  if (bsontype === 'Long') return 'n' + String(value);
  return (bsontype ?? 'j') + BSON.EJSON.stringify({ v: value as never }, { relaxed: false });
}

/** Formats a value the way mongod prints it in messages such as `dup key: { email: "x" }`. */
export function formatValue(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value !== 'object') return String(value);
  if (value instanceof ObjectId) return `ObjectId('${value.toHexString()}')`;
  if (value instanceof Date) return `new Date(${value.getTime()})`;
  if (Array.isArray(value)) return value.length ? `[ ${value.map(formatValue).join(', ')} ]` : '[]';
  if (isPlainObject(value)) {
    const entries = Object.keys(value).map((k) => `${k}: ${formatValue(value[k])}`);
    return entries.length ? `{ ${entries.join(', ')} }` : '{}';
  }
  return String(value);
}

/** Reads a dotted path without array traversal (used for _id and shard-key-like simple fields). */
export function getPath(doc: unknown, path: string): unknown {
  let current: unknown = doc;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Doc)[part];
  }
  return current;
}

/** Writes a dotted path, creating intermediate objects. */
export function setPath(doc: Doc, path: string, value: unknown): void {
  const parts = path.split('.');
  let current: Doc = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    const part = parts[i] as string;
    const next = current[part];
    if (!isPlainObject(next)) current[part] = {};
    current = current[part] as Doc;
  }
  current[parts[parts.length - 1] as string] = value;
}

/**
 * The values a dotted path reaches, traversing arrays the way MongoDB's multikey indexes do: each array element
 * yields its own value. A missing path yields `undefined` once.
 */
export function collectPathValues(doc: unknown, path: string): unknown[] {
  const out: unknown[] = [];
  collect(doc, path.split('.'), 0, out);
  return out.length ? out : [undefined];
}

function collect(value: unknown, parts: string[], depth: number, out: unknown[]): void {
  if (depth === parts.length) {
    if (Array.isArray(value)) {
      if (value.length === 0) out.push(undefined);
      else out.push(...value);
    } else {
      out.push(value);
    }
    return;
  }
  const part = parts[depth] as string;
  if (Array.isArray(value)) {
    if (/^\d+$/.test(part) && Number(part) < value.length) {
      collect(value[Number(part)], parts, depth + 1, out);
      return;
    }
    for (const element of value) if (isPlainObject(element)) collect(element[part], parts, depth + 1, out);
    return;
  }
  if (isPlainObject(value)) collect(value[part], parts, depth + 1, out);
  else out.push(undefined);
}
