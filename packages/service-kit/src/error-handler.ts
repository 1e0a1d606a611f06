import type { ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import { AppError, statusText } from './errors';
import { appErrorFromZod } from './validation';

/** What body-parser / http-errors put on their errors. */
interface HttpErrorLike {
  status?: unknown;
  statusCode?: unknown;
  expose?: unknown;
  type?: unknown;
  limit?: unknown;
}

function httpStatusOf(error: HttpErrorLike): number | undefined {
  const status = error.status ?? error.statusCode;
  return typeof status === 'number' && status >= 400 && status <= 599 ? status : undefined;
}

function fromBodyParser(error: HttpErrorLike): AppError | undefined {
  switch (error.type) {
    case 'entity.parse.failed':
      return AppError.badRequest('Bad Request: malformed JSON body');
    case 'entity.too.large':
      return AppError.payloadTooLarge(
        typeof error.limit === 'number'
          ? `Payload Too Large: request body exceeds ${error.limit} bytes`
          : 'Payload Too Large',
      );
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return AppError.unsupportedMediaType('Unsupported Media Type: unsupported body encoding or charset');
    case 'request.aborted':
    case 'request.size.invalid':
      return AppError.badRequest('Bad Request: incomplete request body');
    default:
      return undefined;
  }
}

/**
 * Turns anything thrown into an AppError the client may see. Unknown failures become a bare 500 so that
 * internals (messages, stacks, driver errors) never leave the process.
 */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const fromZod = appErrorFromZod(error);
  if (fromZod) return fromZod;
  if (typeof error === 'object' && error !== null) {
    const httpError = error as HttpErrorLike;
    const fromParser = fromBodyParser(httpError);
    if (fromParser) return fromParser;
    const status = httpStatusOf(httpError);
    // http-errors marks client errors whose message is safe to show with `expose`.
    if (status !== undefined && status < 500) {
      const message = httpError.expose === true && error instanceof Error ? error.message : statusText(status);
      return new AppError(status, message);
    }
  }
  return AppError.internal();
}

/** The one error middleware: answers JSON `{code, error}`; server-side failures are logged with their stack. */
export function errorHandler(fallbackLogger?: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      // Too late to answer: let Express abort the connection.
      next(error);
      return;
    }
    const appError = toAppError(error);
    if (appError.status >= 500) {
      if (req.log) {
        // The request log (logRequests) writes the request's line at error level with this error and its stack.
        res.err = error instanceof Error ? error : new Error(String(error));
      } else {
        fallbackLogger?.error({ err: error }, 'request failed');
      }
    }
    res.status(appError.status).json(appError.toBody());
  };
}
