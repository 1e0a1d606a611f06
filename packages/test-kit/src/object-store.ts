import path from 'node:path';
import { Client } from 'minio';
import { startEmbeddedS3 } from '@productgen/embedded-s3';

export interface S3Access {
  endpoint: string;
  accessKey: string;
  secretKey: string;
}

/** Every object key under `prefix` in the bucket, sorted (the services' ObjectStore has no listing of its own). */
export async function listObjectKeys(access: S3Access, bucket: string, prefix: string): Promise<string[]> {
  const url = new URL(access.endpoint);
  const client = new Client({
    endPoint: url.hostname,
    port: Number(url.port),
    useSSL: url.protocol === 'https:',
    accessKey: access.accessKey,
    secretKey: access.secretKey,
    region: 'us-east-1',
    pathStyle: true,
  });
  const keys: string[] = [];
  for await (const item of client.listObjectsV2(bucket, prefix, true)) {
    if (item.name) keys.push(item.name);
  }
  return keys.sort();
}

/**
 * The object keys under `prefix` of a stopped platform's embedded S3 (`<DATA_DIR>/s3`), read by starting the
 * embedded S3 on that directory for a moment. The platform must have stopped first: one process owns the folder.
 */
export async function readStoppedPlatformObjectKeys(
  dataDir: string,
  bucket: string,
  prefix: string,
): Promise<string[]> {
  const s3 = await startEmbeddedS3({ dataDir: path.join(dataDir, 's3') });
  try {
    return await listObjectKeys(s3, bucket, prefix);
  } finally {
    await s3.stop();
  }
}
