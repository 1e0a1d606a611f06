import { useEffect, useState } from 'react';
import { WorkerClient } from '../../runtime/worker-client';
import type { FillReply, FillRequest } from '../../workers/protocol';
import { TEXTS } from '../../texts';

export type FillWorker = WorkerClient<FillRequest, FillReply>;
export type FillWorkerState =
  { phase: 'loading' } | { phase: 'ready'; worker: FillWorker } | { phase: 'error'; message: string };

/** The eraser's fill engine: a worker started on entry and answered once before the editor is ready. */
export function useFillWorker(): FillWorkerState {
  const [state, setState] = useState<FillWorkerState>({ phase: 'loading' });
  useEffect(() => {
    let cancelled = false;
    let client: FillWorker | undefined;
    (async () => {
      if (typeof Worker === 'undefined') throw new Error(TEXTS.eraserSystemFailed);
      const { spawnFillWorker } = await import('../../runtime/spawn-workers');
      client = new WorkerClient<FillRequest, FillReply>(spawnFillWorker());
      await client.request({ type: 'ping' });
      if (!cancelled) setState({ phase: 'ready', worker: client });
    })().catch(() => {
      if (!cancelled) setState({ phase: 'error', message: TEXTS.eraserModelFailed });
    });
    return () => {
      cancelled = true;
      client?.terminate();
    };
  }, []);
  return state;
}
