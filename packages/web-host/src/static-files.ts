import { stat } from 'node:fs/promises';
import path from 'node:path';
import express, { type RequestHandler, type Response } from 'express';

/** The built files the webpack build also writes as `<file>.br` (mf-shared's webpack config). */
const PRECOMPRESSED = /\.(js|css|json)$/;

export interface StaticFilesOptions {
  /** Headers for a served file; `filePath` is the file asked for, never its `.br` copy. */
  setHeaders?: (res: Response, filePath: string) => void;
}

async function isFile(filePath: string): Promise<boolean> {
  try {
    return (await stat(filePath)).isFile();
  } catch {
    return false;
  }
}

/**
 * express.static for a build folder, answering with the build's brotli copy (`<file>.br`) when the browser takes
 * brotli and the copy exists. It is made once at build time at the highest level, about 15% smaller than what the
 * `compression` middleware can afford to make per request; files without a copy are still compressed by it.
 * The copy is looked up on each request, so a version published while the server runs is served the same way.
 */
export function serveStaticFiles(root: string, options: StaticFilesOptions = {}): RequestHandler {
  const base = path.resolve(root);
  const serve = express.static(base, {
    index: false,
    setHeaders: (res, filePath) =>
      options.setHeaders?.(res, res.getHeader('Content-Encoding') === 'br' ? filePath.replace(/\.br$/, '') : filePath),
  });
  return async (req, res, next) => {
    const originalUrl = req.url;
    // Not served here after all: the next handler sees the request, and the headers, as they came.
    const restoreUrl = (error?: unknown) => {
      if (req.url !== originalUrl && !res.headersSent) {
        res.removeHeader('Content-Encoding');
        res.removeHeader('Content-Type');
      }
      req.url = originalUrl;
      next(error);
    };
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !PRECOMPRESSED.test(req.path)) {
      serve(req, res, restoreUrl);
      return;
    }
    // Caches must keep the brotli and the plain answer apart.
    res.vary('Accept-Encoding');
    let requested: string;
    try {
      requested = path.join(base, decodeURIComponent(req.path));
    } catch {
      serve(req, res, restoreUrl);
      return;
    }
    if (
      requested.startsWith(base + path.sep) &&
      req.acceptsEncodings('br') === 'br' &&
      (await isFile(`${requested}.br`))
    ) {
      res.type(path.extname(requested));
      res.setHeader('Content-Encoding', 'br');
      const query = originalUrl.slice(req.path.length);
      req.url = `${req.path}.br${query}`;
    }
    serve(req, res, restoreUrl);
  };
}
