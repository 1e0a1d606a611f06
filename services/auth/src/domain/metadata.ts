import { limits, type UserMetadata } from '@productgen/contracts';

/** Largest stored metadata, as JSON text: room for UI preferences, not a document store. */
export const MAX_METADATA_BYTES = 16 * 1024;

/** Keys that would reach Object.prototype when a client merges the metadata back into an object. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export type MetadataMergeResult = { ok: true; json: string } | { ok: false; status: 400 | 413; message: string };

/**
 * Merges new metadata keys over the stored ones (a key set to null is removed). The result is kept as JSON
 * text, so client keys never become database field paths.
 */
export function mergeMetadata(storedJson: string, update: UserMetadata): MetadataMergeResult {
  const forbidden = Object.keys(update).find((key) => FORBIDDEN_KEYS.has(key));
  if (forbidden !== undefined) return { ok: false, status: 400, message: `Metadata key "${forbidden}" is not allowed` };

  const merged = new Map<string, unknown>(Object.entries(parseStored(storedJson)));
  for (const [key, value] of Object.entries(update)) {
    if (value === null) merged.delete(key);
    else if (value !== undefined) merged.set(key, value);
  }
  if (merged.size > limits.maxUserMetadataKeys) {
    return { ok: false, status: 400, message: `Metadata can hold at most ${limits.maxUserMetadataKeys} keys` };
  }
  const json = JSON.stringify(Object.fromEntries(merged));
  if (Buffer.byteLength(json, 'utf8') > MAX_METADATA_BYTES) {
    return { ok: false, status: 413, message: `Metadata must be at most ${MAX_METADATA_BYTES} bytes in total` };
  }
  return { ok: true, json };
}

function parseStored(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
