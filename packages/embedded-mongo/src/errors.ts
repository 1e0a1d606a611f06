/** MongoDB server error codes used by this server, with their canonical code names. */
export const ErrorCodes = {
  InternalError: 1,
  BadValue: 2,
  FailedToParse: 9,
  TypeMismatch: 14,
  ProtocolError: 17,
  IllegalOperation: 20,
  InvalidBSON: 22,
  NamespaceNotFound: 26,
  IndexNotFound: 27,
  ConflictingUpdateOperators: 40,
  CursorNotFound: 43,
  NamespaceExists: 48,
  CommandNotFound: 59,
  ImmutableField: 66,
  CannotCreateIndex: 67,
  InvalidOptions: 72,
  InvalidNamespace: 73,
  NoReplicationEnabled: 76,
  IndexOptionsConflict: 85,
  IndexKeySpecsConflict: 86,
  DuplicateKey: 11000,
  BSONObjectTooLarge: 10334,
} as const;

export type ErrorCodeName = keyof typeof ErrorCodes;

/** A command failure that is reported to the client as `{ok: 0, errmsg, code, codeName, ...extra}`. */
export class CommandError extends Error {
  readonly code: number;

  constructor(
    readonly codeName: ErrorCodeName,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'CommandError';
    this.code = ErrorCodes[codeName];
  }

  toReply(): Record<string, unknown> {
    return { ok: 0, errmsg: this.message, code: this.code, codeName: this.codeName, ...this.extra };
  }

  /** The shape MongoDB uses inside `writeErrors` arrays. */
  toWriteError(index: number): Record<string, unknown> {
    return { index, code: this.code, errmsg: this.message, ...this.extra };
  }
}

/** Turns anything thrown while executing a command into a CommandError (query/update parse errors are the client's). */
export function toCommandError(error: unknown): CommandError {
  if (error instanceof CommandError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/would create a conflict/.test(message)) return new CommandError('ConflictingUpdateOperators', message);
  return new CommandError('BadValue', message);
}
