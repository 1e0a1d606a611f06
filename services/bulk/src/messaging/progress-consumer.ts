import type { MessageBus, Subscription } from '@productgen/bus';
import { topics, type MessagePayload } from '@productgen/contracts';
import type { GenerationEvent } from '../data/job-repository';
import type { ProgressTracker } from '../progress';

export const bulkQueues = { progress: 'bulk.progress' } as const;

type ProgressMessage =
  | MessagePayload<typeof topics.generationImageCompleted>
  | MessagePayload<typeof topics.generationCompleted>
  | MessagePayload<typeof topics.generationFailed>;

/** What one of generation's outcome messages says of a batch product's generation; null when not a batch's. */
export function generationEventOf(topic: string, payload: ProgressMessage): GenerationEvent | null {
  if (!payload.bulk_job_uuid) return null;
  const event = {
    jobUuid: payload.bulk_job_uuid,
    userId: payload.userId,
    generationUuid: payload.generation_uuid,
  };
  if (topic === topics.generationImageCompleted && 'image_index' in payload) {
    return { ...event, images: [payload.image_index], outcome: null };
  }
  if (topic === topics.generationCompleted && 'images_completed' in payload) {
    return { ...event, images: payload.image_indexes ?? [], outcome: 'completed' };
  }
  if (topic === topics.generationFailed) return { ...event, images: [], outcome: 'failed' };
  return null;
}

/**
 * Generation's outcome messages of batch products are bulk's progress: each is recorded on its job (idempotently,
 * in any order: images are a set, an outcome is set once), then the job's progress is computed again from the record.
 * A message is acknowledged once recorded and once a refresh that started after it is done; a redelivered one
 * changes nothing.
 */
export function subscribeToProgress(bus: MessageBus, progress: ProgressTracker): Promise<Subscription> {
  return bus.subscribe<ProgressMessage>(
    bulkQueues.progress,
    [topics.generationImageCompleted, topics.generationCompleted, topics.generationFailed],
    async (message) => {
      const event = generationEventOf(message.topic, message.payload);
      if (event && (await progress.record(event))) await progress.refreshSoon(event.jobUuid);
    },
    // Refreshes are paced, so many messages wait for the next one.
    { prefetch: 64, retryDelaysMs: [1000, 5000] },
  );
}
