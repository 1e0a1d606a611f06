import type { Request } from 'express';
import busboy from 'busboy';
import { Transform, type TransformCallback } from 'node:stream';
import { AppError, DEFAULT_DRAIN_TIMEOUT_MS, drainRequestBody, type ObjectStore } from '@productgen/service-kit';
import { zipTooLargeMessage } from '../domain/zip-rules';

/** The one file part as multer would describe it, which is what the contracts' request schema checks. */
export interface ReceivedFile {
  originalname: string;
  mimetype: string;
  size: number;
}

export interface ReceivedUpload {
  fields: Record<string, string>;
  file: ReceivedFile | undefined;
}

const ZIP_FIELD = 'zipFile';

/**
 * Reads the rest of a refused request's body (up to `maxBytes`) and discards it, so the client can read the answer
 * instead of a reset connection; nothing of it is parsed or stored.
 */
export function discardUnreadBody(req: Request, maxBytes: number): Promise<boolean> {
  return req.res
    ? drainRequestBody(req, req.res, { maxBytes, timeoutMs: DEFAULT_DRAIN_TIMEOUT_MS })
    : Promise.resolve(false);
}

/** Counts the bytes that pass and fails the stream once they exceed the cap. */
class ByteCap extends Transform {
  bytes = 0;
  constructor(private readonly maxBytes: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) callback(AppError.payloadTooLarge(zipTooLargeMessage(this.maxBytes)));
    else callback(null, chunk);
  }
}

/**
 * Reads a multipart request with busboy and streams its `zipFile` part straight into the object store under `key`
 * (never whole in memory: the store's client cuts it into parts). Other parts are small text fields. The caller
 * removes the object when it refuses the upload. A refusal found while the body is still arriving (too large, an
 * unexpected part) is reported once the rest of the body has been read and discarded (up to `maxBytes` more), so the
 * client can read the answer instead of a reset connection.
 */
export function receiveZipUpload(
  req: Request,
  options: {
    objectStore: ObjectStore;
    key: string;
    maxBytes: number;
    /** Watches the zip's bytes on their way to the store (given the fields sent before it); its error refuses the upload. */
    watchZip?: (fieldsBeforeFile: Readonly<Record<string, string>>) => Transform;
  },
): Promise<ReceivedUpload> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      limits: { files: 1, fields: 10, fieldSize: 64 * 1024, parts: 12, fileSize: options.maxBytes + 1 },
    });
  } catch {
    return Promise.reject(AppError.badRequest('Send the zip as multipart/form-data with the file in zipFile.'));
  }
  return new Promise<ReceivedUpload>((resolve, reject) => {
    const fields: Record<string, string> = {};
    let file: ReceivedFile | undefined;
    let storing: Promise<void> | undefined;
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      void discardUnreadBody(req, options.maxBytes).then(() => reject(error));
    };

    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== ZIP_FIELD || storing) {
        stream.resume();
        if (name !== ZIP_FIELD) fail(AppError.badRequest(`Unexpected file field "${name}": send the zip as zipFile.`));
        return;
      }
      const cap = new ByteCap(options.maxBytes);
      // The cap can fail before the object store's client listens to it (it starts reading after its own awaits);
      // an 'error' event nobody listens to would end the process.
      cap.on('error', fail);
      stream.on('limit', () => cap.destroy(AppError.payloadTooLarge(zipTooLargeMessage(options.maxBytes))));
      stream.on('error', (error) => cap.destroy(error));
      const watch = options.watchZip?.(fields);
      if (watch) {
        watch.on('error', (error) => cap.destroy(error));
        stream.pipe(watch).pipe(cap);
      } else stream.pipe(cap);
      storing = options.objectStore.putObject(options.key, cap, { contentType: 'application/zip' }).then(() => {
        file = { originalname: info.filename ?? '', mimetype: info.mimeType, size: cap.bytes };
      });
      storing.catch((error: unknown) => {
        stream.resume();
        fail(error instanceof AppError ? error : cap.destroyed && cap.errored ? cap.errored : error);
      });
    });
    parser.on('filesLimit', () => fail(AppError.badRequest('Send one zip file only.')));
    parser.on('partsLimit', () => fail(AppError.badRequest('The request has too many parts.')));
    parser.on('fieldsLimit', () => fail(AppError.badRequest('The request has too many fields.')));
    parser.on('error', () => fail(AppError.badRequest('The upload could not be read: the request is incomplete.')));
    parser.on('close', () => {
      if (failed) return;
      (storing ?? Promise.resolve()).then(
        () => {
          if (!failed) resolve({ fields, file });
        },
        () => undefined,
      );
    });
    req.on('aborted', () => fail(AppError.badRequest('The upload was interrupted.')));
    req.pipe(parser);
  });
}
