import { MongoHitCounter, runMigration } from '@productgen/service-kit';

/**
 * Distributed mode's migration step: the collection the replicas count their rate limits in, with its TTL index,
 * before the gateway starts. (The window length does not matter to the collection.)
 */
runMigration({
  role: 'gateway',
  defaultDbName: 'gateway',
  createModels: async (connection) => ({ hitWindows: (await MongoHitCounter.open(connection, 60_000)).model }),
});
