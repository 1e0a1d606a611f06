import type { IncomingMessage, ServerResponse } from 'node:http';
import { access, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * The S3 operations the minio client needs that s3rver lacks:
 * - ListMultipartUploads (GET /bucket?uploads): minio asks it before every multipart upload, to resume an
 *   unfinished one. We always answer "none", because resuming would need ListParts, which s3rver lacks too.
 * - AbortMultipartUpload (DELETE /bucket/key?uploadId=): drops the parts s3rver keeps on disk.
 * Everything else goes to s3rver (CreateMultipartUpload, UploadPart and CompleteMultipartUpload it has).
 */

const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** s3rver's upload ids: 16 random bytes in hex. */
const UPLOAD_ID = /^[0-9a-f]{32}$/;
/** Where s3rver's FilesystemStore keeps multipart parts (its getResourcePath(bucket, '', 'uploads')). */
const UPLOADS_DIR = '._S3rver_uploads';

function xmlEscape(value: string): string {
  return value.replace(/[<>&'"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

export function sendS3Error(res: ServerResponse, status: number, code: string, message: string): void {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message></Error>`;
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function bucketExists(dataDir: string, bucket: string): Promise<boolean> {
  try {
    await access(path.join(dataDir, bucket));
    return true;
  } catch {
    return false;
  }
}

/** Answers the request when it is one of the shimmed operations; returns false to let s3rver handle it. */
export async function handleShimmed(req: IncomingMessage, res: ServerResponse, dataDir: string): Promise<boolean> {
  const url = new URL(req.url ?? '/', 'http://s3.local');
  const [, bucket = '', ...keyParts] = url.pathname.split('/');
  const hasKey = keyParts.join('/') !== '';
  const listUploads = req.method === 'GET' && !hasKey && url.searchParams.has('uploads');
  const abortUpload = req.method === 'DELETE' && hasKey && url.searchParams.has('uploadId');
  if (!listUploads && !abortUpload) return false;

  if (!BUCKET_NAME.test(bucket) || !(await bucketExists(dataDir, bucket))) {
    sendS3Error(res, 404, 'NoSuchBucket', 'The specified bucket does not exist');
    return true;
  }
  if (listUploads) {
    const prefix = url.searchParams.get('prefix') ?? '';
    // IsTruncated is left out on purpose: minio's parser would read the text "false" as a truthy value.
    const body =
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
      '<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
      `<Bucket>${xmlEscape(bucket)}</Bucket><KeyMarker></KeyMarker><UploadIdMarker></UploadIdMarker>` +
      `<Prefix>${xmlEscape(prefix)}</Prefix><MaxUploads>1000</MaxUploads>` +
      '</ListMultipartUploadsResult>';
    res.writeHead(200, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
    res.end(body);
    return true;
  }
  const uploadId = url.searchParams.get('uploadId') ?? '';
  if (!UPLOAD_ID.test(uploadId)) {
    sendS3Error(res, 404, 'NoSuchUpload', 'The specified multipart upload does not exist');
    return true;
  }
  await rm(path.join(dataDir, bucket, UPLOADS_DIR, uploadId), { recursive: true, force: true });
  res.writeHead(204);
  res.end();
  return true;
}

/**
 * s3rver lets unsigned requests through (it only checks that a signed request's access key exists, and does not
 * verify SigV4 signatures). Refusing unsigned requests makes buckets private as on MinIO: a presigned URL is the
 * only way in without credentials, and it expires.
 */
export function isSigned(req: IncomingMessage): boolean {
  if (req.headers.authorization) return true;
  const query = new URL(req.url ?? '/', 'http://s3.local').searchParams;
  return query.has('X-Amz-Algorithm') || query.has('Signature');
}
