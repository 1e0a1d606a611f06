// Create batch: resize every image in the browser, zip them, upload the zip with its real progress.
import type { PlatformClient } from '@productgen/platform-client';
import { resizeImageToJpeg } from '../shared/resize';
import { BatchInputError, zipFiles } from './zip';
import { ZIPPING_PROGRESS, resizingProgress, uploadingProgress, type BatchItem, type BatchStage } from './state';

export interface BatchRequest {
  items: readonly BatchItem[];
  numGenerates: number;
  presets: string[];
  /** "Check uncertain products before rendering". */
  checkUncertain: boolean;
}

/** Lets the browser paint the stage just reported before the next long step. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Runs the stages, reporting each, and answers the new job's bulk_job_uuid. */
export async function createBatch(
  client: PlatformClient,
  { items, numGenerates, presets, checkUncertain }: BatchRequest,
  report: (stage: BatchStage, progress: number) => void,
): Promise<string> {
  report('resizing', resizingProgress(0, items.length));
  const resized: { name: string; data: Blob }[] = [];
  for (const item of items) {
    try {
      resized.push({ name: item.name, data: await resizeImageToJpeg(item.file) });
    } catch {
      throw new BatchInputError(`"${item.name}" could not be read as an image. Remove it and try again.`);
    }
    report('resizing', resizingProgress(resized.length, items.length));
  }

  report('zipping', ZIPPING_PROGRESS);
  await nextTask();
  const zip = await zipFiles(resized);

  report('uploading', uploadingProgress(0));
  const { bulk_job_uuid: bulkJobUuid } = await client.bulkZip({
    zip,
    numGenerates,
    presets,
    checkUncertain,
    onUploadProgress: (share) => report('uploading', uploadingProgress(share)),
  });
  report('done', 100);
  return bulkJobUuid;
}
