import { useEffect, useState } from 'react';
import { usePlatformClient, useCredits, type RecordItem } from '@productgen/platform-client';

export type RecordsState = { status: 'loading' } | { status: 'failed' } | { status: 'loaded'; records: RecordItem[] };

/**
 * GET /records once for the whole dashboard (stat cards, Recently Created, Past Creations). It refetches when the
 * balance changes, which is when a creation or a refund happened, and when `refreshKey` changes (a batch finished).
 */
export function useRecords(refreshKey = 0): RecordsState {
  const client = usePlatformClient();
  const credits = useCredits();
  const [state, setState] = useState<RecordsState>({ status: 'loading' });

  useEffect(() => {
    // Signed out (or not yet known): asking would only earn a 401.
    if (credits === null) return undefined;
    let current = true;
    client.records().then(
      (records) => current && setState(Array.isArray(records) ? { status: 'loaded', records } : { status: 'failed' }),
      () => current && setState({ status: 'failed' }),
    );
    return () => {
      current = false;
    };
  }, [client, credits, refreshKey]);

  return state;
}

/** Where a creation's details live: a single generation's in the dashboard, a batch job's on its job page. */
export function detailsPath(record: Pick<RecordItem, 'type' | 'id'>): string {
  return record.type === 'bulk'
    ? `/job/${encodeURIComponent(record.id)}`
    : `/dashboard?generation=${encodeURIComponent(record.id)}`;
}
