import type { CursorManager } from '../cursors';
import { CommandError } from '../errors';
import type { StorageEngine } from '../storage/engine';
import { type Doc, isPlainObject } from '../values';

export interface ServerInfo {
  startedAt: Date;
  dbPath: string;
  host: string;
  port: number;
  currentConnections(): number;
  totalConnections(): number;
}

/** Everything a command handler may use. */
export interface CommandContext {
  db: string;
  engine: StorageEngine;
  cursors: CursorManager;
  /** Resolves when every change made so far is durable; write commands await it before replying. */
  sync(): Promise<void>;
  connectionId: number;
  remoteAddress: string;
  server: ServerInfo;
}

export type CommandHandler = (cmd: Doc, ctx: CommandContext) => Doc | Promise<Doc>;

/** The collection a command targets (the value of its first field). */
export function targetCollection(cmd: Doc, commandName: string): string {
  const name = cmd[commandName];
  if (typeof name !== 'string' || name === '') {
    throw new CommandError('InvalidNamespace', `collection name has invalid type ${typeof name}`);
  }
  return name;
}

export function optionalDoc(cmd: Doc, field: string): Doc | undefined {
  const value = cmd[field];
  if (value === undefined || value === null) return undefined;
  if (!isPlainObject(value))
    throw new CommandError('TypeMismatch', `BSON field '${field}' is the wrong type, expected object`);
  return value;
}

export function optionalNumber(cmd: Doc, field: string): number | undefined {
  const value = cmd[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new CommandError('TypeMismatch', `BSON field '${field}' is the wrong type, expected a number`);
  }
  return Math.trunc(value);
}

export function nonNegative(value: number | undefined, field: string): number | undefined {
  if (value !== undefined && value < 0)
    throw new CommandError('BadValue', `${field} value must be non-negative, but received: ${value}`);
  return value;
}

export function docArray(cmd: Doc, field: string): Doc[] {
  const value = cmd[field];
  if (!Array.isArray(value) || !value.every(isPlainObject)) {
    throw new CommandError('TypeMismatch', `BSON field '${field}' is missing or is not an array of objects`);
  }
  return value;
}

/** Fields drivers add to every command (sessions, routing, concerns); they carry no command-specific meaning here. */
export const GENERIC_FIELDS = new Set([
  '$db',
  'lsid',
  'txnNumber',
  '$clusterTime',
  '$readPreference',
  'readConcern',
  'writeConcern',
  'comment',
  'maxTimeMS',
  'apiVersion',
  'apiStrict',
  'apiDeprecationErrors',
  'autocommit',
  'startTransaction',
]);

export function withoutGenericFields(cmd: Doc): Doc {
  const out: Doc = {};
  for (const [key, value] of Object.entries(cmd)) if (!GENERIC_FIELDS.has(key)) out[key] = value;
  return out;
}
