import type { MessageBus, Subscription } from '@productgen/bus';
import { topics } from '@productgen/contracts';
import type { ProgressTracker } from '../progress';

export const bulkQueues = { progress: 'bulk.progress' } as const;

/**
 * Generation's outcome messages of batch products trigger a refresh of their job. The message only says "look
 * again": progress is read from generation's records, so a repeated, late or lost message changes nothing (the
 * periodic poll catches a lost one).
 */
export function subscribeToProgress(bus: MessageBus, progress: ProgressTracker): Promise<Subscription> {
  return bus.subscribe<{ bulk_job_uuid?: string | null }>(
    bulkQueues.progress,
    [topics.generationImageCompleted, topics.generationCompleted, topics.generationFailed],
    async (message) => {
      const jobUuid = message.payload.bulk_job_uuid;
      if (jobUuid) await progress.refreshSoon(jobUuid);
    },
    // A message is acknowledged once a refresh that started after it is done; refreshes are paced, so many wait.
    { prefetch: 64, retryDelaysMs: [1000, 5000] },
  );
}
