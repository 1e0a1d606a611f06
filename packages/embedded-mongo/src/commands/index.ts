import { CommandError, toCommandError } from '../errors';
import type { Logger } from '../logger';
import type { Doc } from '../values';
import { adminCommands } from './admin';
import type { CommandContext, CommandHandler } from './context';
import { ddlCommands } from './ddl';
import { readCommands } from './read';
import { writeCommands } from './write';

export type { CommandContext, ServerInfo } from './context';

const COMMANDS: ReadonlyMap<string, CommandHandler> = new Map(
  Object.entries({ ...adminCommands, ...readCommands, ...writeCommands, ...ddlCommands }),
);

/** Runs one command document and returns its reply; failures become `{ok: 0, ...}` replies, never exceptions. */
export async function runCommand(cmd: Doc, ctx: CommandContext, logger: Logger): Promise<Doc> {
  const name = Object.keys(cmd)[0];
  try {
    if (name === undefined) throw new CommandError('FailedToParse', 'Command document is empty');
    const handler = COMMANDS.get(name);
    if (!handler) throw new CommandError('CommandNotFound', `no such command: '${name}'`);
    if (cmd.startTransaction !== undefined || cmd.autocommit !== undefined) {
      // Like a standalone mongod: transactions need a replica set. A bare txnNumber (retryable write) is harmless.
      throw new CommandError(
        'IllegalOperation',
        'Transaction numbers are only allowed on a replica set member or mongos',
      );
    }
    return await handler(cmd, ctx);
  } catch (error) {
    if (!(error instanceof CommandError)) logger.warn(`command ${String(name)} failed`, error);
    return toCommandError(error).toReply();
  }
}
