import { useCallback, useEffect, useRef, useState } from 'react';
import { isApiError, usePlatformClient, type BulkJob } from '@productgen/platform-client';
import { JOB_POLL_INTERVAL_MS, jobSettled } from './jobStatus';

export type JobLoad =
  | { state: 'loading' }
  | { state: 'notFound' }
  | { state: 'failed' }
  /** pollFailed: a later poll failed; the last answer stays on screen and polling has stopped. */
  | { state: 'loaded'; job: BulkJob; pollFailed: boolean; refresh: () => void };

/** The job, fetched once `enabled` and then every 10 s until it has settled or a fetch fails. */
export function useBulkJob(bulkJobUuid: string, enabled: boolean): JobLoad {
  const client = usePlatformClient();
  const [load, setLoad] = useState<JobLoad>({ state: 'loading' });
  // Bumped by every answer that asks for another poll.
  const [polls, setPolls] = useState(0);
  // Bumped to fetch at once (after the seller checked a product).
  const [refreshes, setRefreshes] = useState(0);
  const refresh = useCallback(() => setRefreshes((count) => count + 1), []);
  const lastRefresh = useRef(0);

  useEffect(() => {
    if (!enabled) return;
    let active = true;
    const fetchJob = () =>
      client.bulkJob(bulkJobUuid).then(
        (job) => {
          if (!active) return;
          setLoad({ state: 'loaded', job, pollFailed: false, refresh });
          if (!jobSettled(job)) setPolls((count) => count + 1);
        },
        (error: unknown) => {
          if (!active) return;
          setLoad((previous) => {
            if (previous.state === 'loaded') return { ...previous, pollFailed: true };
            return { state: isApiError(error) && error.code === 404 ? 'notFound' : 'failed' };
          });
        },
      );
    // The first fetch goes at once, and so does one asked for; each later one 10 s after the previous answer.
    const now = polls === 0 || refreshes !== lastRefresh.current;
    lastRefresh.current = refreshes;
    const timer = setTimeout(() => void fetchJob(), now ? 0 : JOB_POLL_INTERVAL_MS);
    return () => {
      active = false;
      clearTimeout(timer);
    };
  }, [client, bulkJobUuid, enabled, polls, refreshes, refresh]);

  return load;
}
