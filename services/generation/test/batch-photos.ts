import { batchPhotoKey, type BatchPhotoRef } from '@productgen/contracts';
import type { ObjectStore } from '@productgen/service-kit';

let stored = 0;

/** A batch photo stored as bulk stores it before a hand-over (under the batch's prefix); its reference. */
export async function storeBatchPhoto(
  store: ObjectStore,
  userId: string,
  bulkJobUuid: string,
  photo: Buffer,
): Promise<BatchPhotoRef> {
  stored += 1;
  const key = batchPhotoKey(userId, bulkJobUuid, stored, 'jpg');
  await store.putObject(key, photo, { contentType: 'application/octet-stream', size: photo.length });
  return { bucket: store.bucket, key };
}
