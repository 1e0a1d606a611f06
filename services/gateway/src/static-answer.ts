import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';

/** Express's ETag function (the app's `etag fn` setting): the answer carries the tag Express would give it. */
export type ETagFunction = (body: Buffer, encoding?: BufferEncoding) => string;

/** Below this size compression() leaves an answer as it is, and so does a static answer. */
const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * A JSON answer that stays the same while the process runs (the client configuration, the OpenAPI document):
 * serialised, tagged and compressed once rather than per request. The compressed bytes go to a client that accepts
 * them, with their Content-Encoding set, so compression() passes them through untouched. `send` still goes through
 * res.send, so a matching If-None-Match gets its 304 and HEAD no body.
 */
export function staticJsonAnswer(
  value: unknown,
  etagOf: ETagFunction | undefined,
): (req: Request, res: Response) => void {
  const identity = Buffer.from(JSON.stringify(value));
  const etag = etagOf?.(identity);
  const encoded =
    identity.length < COMPRESSION_THRESHOLD_BYTES
      ? undefined
      : {
          br: brotliCompressSync(identity, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
          gzip: gzipSync(identity, { level: 9 }),
        };
  return (req, res) => {
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    if (etag) res.setHeader('ETag', etag);
    if (!encoded) return void res.send(identity);
    res.vary('Accept-Encoding');
    // Brotli first whenever it is accepted, as compression() prefers it: smaller than gzip.
    const encoding = req.acceptsEncodings('br') ? 'br' : req.acceptsEncodings('gzip') ? 'gzip' : undefined;
    if (encoding) {
      res.setHeader('Content-Encoding', encoding);
      res.send(encoded[encoding]);
    } else res.send(identity);
  };
}
