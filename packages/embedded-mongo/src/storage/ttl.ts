import type { Logger } from '../logger';
import { collectPathValues, type Doc } from '../values';
import type { StorageEngine } from './engine';

/** Removes documents whose TTL-indexed date field has expired, like mongod's TTL monitor (default every 60 s). */
export function startTtlMonitor(engine: StorageEngine, intervalMs: number, logger: Logger): () => void {
  const sweep = (): void => {
    try {
      const now = Date.now();
      for (const collections of engine.databases.values()) {
        for (const coll of collections.values()) {
          for (const index of coll.indexes.values()) {
            const seconds = index.spec.expireAfterSeconds;
            const field = index.fields[0];
            if (typeof seconds !== 'number' || index.fields.length !== 1 || field === undefined) continue;
            const expired: Doc[] = [];
            for (const doc of coll.docs.values()) {
              const dates = collectPathValues(doc, field).filter((v): v is Date => v instanceof Date);
              if (dates.length && Math.min(...dates.map((d) => d.getTime())) + seconds * 1000 <= now) expired.push(doc);
            }
            for (const doc of expired) engine.deleteDocument(coll, doc._id);
          }
        }
      }
    } catch (error) {
      logger.error('TTL sweep failed', error);
    }
  };
  const timer = setInterval(sweep, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
