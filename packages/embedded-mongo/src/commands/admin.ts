import { CommandError } from '../errors';
import type { Doc } from '../values';
import type { CommandContext, CommandHandler } from './context';

export const MAX_BSON_OBJECT_SIZE = 16 * 1024 * 1024;
export const MAX_MESSAGE_SIZE_BYTES = 48_000_000;
export const MAX_WRITE_BATCH_SIZE = 100_000;
export const SERVER_VERSION = '7.0.0';

/** The handshake reply: a writable standalone server. No topologyVersion, so drivers poll instead of streaming. */
export function helloReply(ctx: CommandContext): Doc {
  return {
    helloOk: true,
    ismaster: true,
    isWritablePrimary: true,
    maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
    maxMessageSizeBytes: MAX_MESSAGE_SIZE_BYTES,
    maxWriteBatchSize: MAX_WRITE_BATCH_SIZE,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId: ctx.connectionId,
    minWireVersion: 0,
    maxWireVersion: 21,
    readOnly: false,
    ok: 1,
  };
}

const buildInfo: CommandHandler = () => ({
  version: SERVER_VERSION,
  gitVersion: 'embedded',
  versionArray: [7, 0, 0, 0],
  bits: 64,
  debug: false,
  maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
  storageEngines: ['embedded'],
  modules: [],
  javascriptEngine: 'none',
  ok: 1,
});

const serverStatus: CommandHandler = (_cmd, ctx) => {
  const uptimeMillis = Date.now() - ctx.server.startedAt.getTime();
  return {
    host: `${ctx.server.host}:${ctx.server.port}`,
    version: SERVER_VERSION,
    process: 'embedded-mongo',
    pid: process.pid,
    uptime: Math.floor(uptimeMillis / 1000),
    uptimeMillis,
    localTime: new Date(),
    connections: {
      current: ctx.server.currentConnections(),
      available: 1_000_000,
      totalCreated: ctx.server.totalConnections(),
    },
    ok: 1,
  };
};

const PARAMETERS: Doc = {
  featureCompatibilityVersion: { version: '7.0' },
  authenticationMechanisms: [],
};

const getParameter: CommandHandler = (cmd) => {
  if (cmd.getParameter === '*') return { ...PARAMETERS, ok: 1 };
  const reply: Doc = {};
  for (const key of Object.keys(cmd)) if (key in PARAMETERS) reply[key] = PARAMETERS[key];
  if (Object.keys(reply).length === 0) throw new CommandError('InvalidOptions', 'no option found to get');
  reply.ok = 1;
  return reply;
};

const ok: CommandHandler = () => ({ ok: 1 });

export const adminCommands: Record<string, CommandHandler> = {
  hello: (_cmd, ctx) => helloReply(ctx),
  isMaster: (_cmd, ctx) => helloReply(ctx),
  ismaster: (_cmd, ctx) => helloReply(ctx),
  buildInfo,
  buildinfo: buildInfo,
  ping: ok,
  endSessions: ok,
  refreshSessions: ok,
  killSessions: ok,
  killAllSessions: ok,
  serverStatus,
  getParameter,
  getCmdLineOpts: (_cmd, ctx) => ({
    argv: ['embedded-mongo', '--dbpath', ctx.server.dbPath],
    parsed: { storage: { dbPath: ctx.server.dbPath }, net: { port: ctx.server.port } },
    ok: 1,
  }),
  hostInfo: () => ({
    system: { currentTime: new Date(), hostname: 'localhost' },
    os: { type: process.platform },
    extra: {},
    ok: 1,
  }),
  whatsmyuri: (_cmd, ctx) => ({ you: ctx.remoteAddress, ok: 1 }),
  connectionStatus: () => ({ authInfo: { authenticatedUsers: [], authenticatedUserRoles: [] }, ok: 1 }),
  replSetGetStatus: () => {
    throw new CommandError('NoReplicationEnabled', 'not running with --replSet');
  },
  dbStats: (_cmd, ctx) => {
    const collections = ctx.engine.databases.get(ctx.db);
    let objects = 0;
    let indexes = 0;
    for (const coll of collections?.values() ?? []) {
      objects += coll.docs.size;
      indexes += coll.indexes.size + 1;
    }
    return { db: ctx.db, collections: collections?.size ?? 0, views: 0, objects, indexes, ok: 1 };
  },
};
