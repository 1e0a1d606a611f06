import { limits, type UserMetadata } from '@productgen/contracts';

/** Largest stored metadata (keys and JSON values, in UTF-8 bytes): room for UI preferences, not a document store. */
export const MAX_METADATA_BYTES = 16 * 1024;

/** Keys that would reach Object.prototype when a client merges the metadata back into an object. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * One stored metadata key. The value is kept as JSON text and the client's key as the base64url field name, so
 * client text never becomes a database field path or operator; `bytes` lets the size limit be checked in the query.
 */
export interface StoredMetadataValue {
  json: string;
  bytes: number;
}

export type StoredMetadata = Record<string, StoredMetadataValue>;

/** A save as one update of the user document: fields set, fields removed, and what it adds towards the limits. */
export interface MetadataSave {
  set: Record<string, StoredMetadataValue>;
  unset: string[];
  /** Every field the save sets or removes: what was stored under them no longer counts towards the limits. */
  touched: string[];
  addedKeys: number;
  addedBytes: number;
}

export interface MetadataRefusal {
  status: 400 | 413;
  message: string;
}

export type MetadataSavePlan = ({ ok: true } & MetadataSave) | ({ ok: false } & MetadataRefusal);

export const TOO_MANY_KEYS_MESSAGE = `Metadata can hold at most ${limits.maxUserMetadataKeys} keys`;
export const TOO_LARGE_MESSAGE = `Metadata must be at most ${MAX_METADATA_BYTES} bytes in total`;

export function metadataField(key: string): string {
  return Buffer.from(key, 'utf8').toString('base64url');
}

export function metadataKey(field: string): string {
  return Buffer.from(field, 'base64url').toString('utf8');
}

/** New keys overwrite stored ones, a key set to null is removed; keys not named stay as they are. */
export function planMetadataSave(update: UserMetadata): MetadataSavePlan {
  const forbidden = Object.keys(update).find((key) => FORBIDDEN_KEYS.has(key));
  if (forbidden !== undefined) return { ok: false, status: 400, message: `Metadata key "${forbidden}" is not allowed` };

  const set: Record<string, StoredMetadataValue> = {};
  const unset: string[] = [];
  for (const [key, value] of Object.entries(update)) {
    if (value === undefined) continue;
    const field = metadataField(key);
    if (value === null) {
      unset.push(field);
      continue;
    }
    const json = JSON.stringify(value);
    set[field] = { json, bytes: Buffer.byteLength(key, 'utf8') + Buffer.byteLength(json, 'utf8') };
  }
  const stored = Object.values(set);
  const plan: MetadataSave = {
    set,
    unset,
    touched: [...Object.keys(set), ...unset],
    addedKeys: stored.length,
    addedBytes: stored.reduce((sum, value) => sum + value.bytes, 0),
  };
  const refusal = limitRefusal({}, plan);
  return refusal ? { ok: false, ...refusal } : { ok: true, ...plan };
}

/** Why saving `save` over `stored` would break a limit; undefined when the result fits. */
export function limitRefusal(stored: StoredMetadata, save: MetadataSave): MetadataRefusal | undefined {
  const kept = Object.entries(stored).filter(([field]) => !save.touched.includes(field));
  if (kept.length + save.addedKeys > limits.maxUserMetadataKeys) return { status: 400, message: TOO_MANY_KEYS_MESSAGE };
  const keptBytes = kept.reduce((sum, [, value]) => sum + value.bytes, 0);
  if (keptBytes + save.addedBytes > MAX_METADATA_BYTES) return { status: 413, message: TOO_LARGE_MESSAGE };
  return undefined;
}

/** The stored metadata as the client sent it. */
export function decodeMetadata(stored: StoredMetadata): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(stored).map(([field, value]) => [metadataKey(field), JSON.parse(value.json) as unknown]),
  );
}
