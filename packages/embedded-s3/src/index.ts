import http from 'node:http';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import S3rver from 's3rver';
import accounts from 's3rver/lib/models/account';
import { handleShimmed, isSigned, sendS3Error } from './shim';

/** Any logger with pino's call shape (a pino logger fits). */
export interface EmbeddedS3Logger {
  debug(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface EmbeddedS3Options {
  /** Data directory; objects survive a restart on the same directory. Created when missing. */
  dataDir: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Defaults to loopback: this server is for one machine only. */
  host?: string;
  /**
   * Access key clients must sign with (default S3RVER). A request signed with an unknown access key is refused
   * (InvalidAccessKeyId). The secret key is registered too, but s3rver does not verify SigV4 signatures, so it is
   * not checked: keep this server on loopback.
   */
  accessKey?: string;
  secretKey?: string;
  /** Buckets to create at start. */
  buckets?: string[];
  logger?: EmbeddedS3Logger;
}

export interface EmbeddedS3 {
  /** e.g. http://127.0.0.1:PORT, the value for S3_ENDPOINT. */
  endpoint: string;
  port: number;
  accessKey: string;
  secretKey: string;
  dataDir: string;
  stop(): Promise<void>;
}

export const DEFAULT_CREDENTIALS = { accessKey: 'S3RVER', secretKey: 'S3RVER' } as const;

/** Starts an S3-compatible server (s3rver plus the shims the minio client needs) on loopback. */
export async function startEmbeddedS3(options: EmbeddedS3Options): Promise<EmbeddedS3> {
  const dataDir = path.resolve(options.dataDir);
  const host = options.host ?? '127.0.0.1';
  const accessKey = options.accessKey ?? DEFAULT_CREDENTIALS.accessKey;
  const secretKey = options.secretKey ?? DEFAULT_CREDENTIALS.secretKey;
  const logger = options.logger;
  await mkdir(dataDir, { recursive: true });

  // s3rver keeps accounts in a process-wide registry; adding a key pair is how it learns our access key.
  accounts.DUMMY_ACCOUNT.createKeyPair(accessKey, secretKey);
  const s3rver = new S3rver({
    directory: dataDir,
    silent: true,
    vhostBuckets: false,
    configureBuckets: (options.buckets ?? []).map((name) => ({ name })),
  });
  // Koa prints errors to stderr unless someone listens; route them to our logger instead.
  s3rver.on('error', (error) => {
    if ((error.status ?? 500) >= 500) logger?.error({ err: error }, 'embedded S3 request failed');
  });
  await s3rver.configureBuckets();
  const handleWithS3rver = s3rver.callback();

  const server = http.createServer((req, res) => {
    const started = Date.now();
    res.once('finish', () =>
      logger?.debug(
        // The query is left out: presigned URLs carry signatures.
        { method: req.method, path: req.url?.split('?')[0], status: res.statusCode, ms: Date.now() - started },
        'embedded S3 request',
      ),
    );
    if (req.method !== 'OPTIONS' && !isSigned(req)) {
      sendS3Error(res, 403, 'AccessDenied', 'Access Denied: the request is not signed');
      return;
    }
    handleShimmed(req, res, dataDir).then(
      (handled) => {
        if (!handled) handleWithS3rver(req, res);
      },
      (error: unknown) => {
        logger?.error({ err: error }, 'embedded S3 shim failed');
        if (!res.headersSent) sendS3Error(res, 500, 'InternalError', 'We encountered an internal error.');
        else res.destroy();
      },
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  let stopped: Promise<void> | undefined;
  return {
    endpoint: `http://${urlHost}:${port}`,
    port,
    accessKey,
    secretKey,
    dataDir,
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        server.close(() => {
          s3rver.logger.close();
          resolve();
        });
        // A local dev/test server: no need to wait for clients' keep-alive sockets.
        server.closeAllConnections();
      });
      return stopped;
    },
  };
}
