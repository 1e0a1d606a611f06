import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { stdSerializers, type Level, type Logger } from 'pino';

declare module 'http' {
  interface IncomingMessage {
    /** The request id (X-Request-Id), assigned by traceRequests. */
    id: string;
    /** A logger whose lines carry the request. */
    log: Logger;
  }
  interface ServerResponse {
    /** The server-side failure behind a 5xx answer (errorHandler): the request's line logs it with its stack. */
    err?: Error;
  }
}

/** pino's serialised request, as a request serialiser receives it. */
type SerializedRequest = ReturnType<typeof stdSerializers.req>;

export interface RequestLogOptions {
  logger: Logger;
  /** Requests whose answer leaves no line (the probes); an error of theirs still does. */
  ignore?: (req: IncomingMessage) => boolean;
  /** Serialises the request after pino's own mapping, e.g. redactRequestUrls; pino's as it is by default. */
  serializeRequest?: (req: SerializedRequest) => object;
}

/** info for an answer, warn for a 4xx, error for a 5xx or a failed response. */
function levelOf(res: ServerResponse, failed: boolean): Level {
  return failed || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info';
}

/**
 * One line per answered request (`request completed`, `request aborted`, `request errored` with the error), with the
 * request, the response and the time it took, in the form pino-http writes; `req.log` is a logger whose lines carry
 * the request. Unlike pino-http, the request is serialised only for a line that is written: pino-http serialised
 * and redacted it into a child logger on every request, also when the level let no line through, which was about a
 * fifth of the gateway's CPU for its own answer.
 */
export function logRequests(options: RequestLogOptions): RequestHandler {
  const { ignore } = options;
  const logger = options.logger.child(
    {},
    {
      serializers: {
        req: options.serializeRequest
          ? stdSerializers.wrapRequestSerializer(options.serializeRequest)
          : stdSerializers.req,
        res: stdSerializers.res,
        err: stdSerializers.err,
      },
    },
  );
  return (req, res, next) => {
    const startedAt = Date.now();
    let requestLogger: Logger | undefined;
    const logOf = () => (requestLogger ??= logger.child({ req }));
    // Made on first use: most requests log nothing of their own.
    const log: PropertyDescriptor = {
      configurable: true,
      enumerable: true,
      get: logOf,
      set: (value: Logger) => {
        requestLogger = value;
      },
    };
    Object.defineProperty(req, 'log', log);
    Object.defineProperty(res, 'log', log);

    const onDone = (error?: Error) => {
      res.off('close', onDone);
      res.off('finish', onDone);
      res.off('error', onDone);
      const failure =
        error ??
        res.err ??
        (res.statusCode >= 500 ? new Error(`failed with status code ${res.statusCode}`) : undefined);
      const level = levelOf(res, error !== undefined);
      if (!logger.isLevelEnabled(level)) return;
      const responseTime = Date.now() - startedAt;
      if (failure) logOf()[level]({ res, err: failure, responseTime }, 'request errored');
      else {
        const message = !req.readableAborted && res.writableEnded ? 'request completed' : 'request aborted';
        logOf()[level]({ res, responseTime }, message);
      }
    };
    if (!ignore?.(req)) {
      res.on('close', onDone);
      res.on('finish', onDone);
    }
    res.on('error', onDone);
    next();
  };
}
