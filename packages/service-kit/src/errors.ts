import { STATUS_CODES } from 'node:http';
import type { ApiError } from '@productgen/contracts';

/** The JSON body every error answer carries (`code` is the HTTP status number): the contracts' one error shape. */
export type ErrorBody = ApiError;

/**
 * The one error type of the services. Its status and message are meant for the client; `details` are for logs
 * and callers in code, never sent over the wire.
 */
export class AppError extends Error {
  readonly status: number;
  readonly details: unknown;

  constructor(status: number, message?: string, details?: unknown, options?: { cause?: unknown }) {
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new RangeError(`AppError status must be an HTTP error status (400-599), got ${status}`);
    }
    super(message ?? statusText(status), options);
    this.name = 'AppError';
    this.status = status;
    this.details = details;
  }

  toBody(): ErrorBody {
    return { code: this.status, error: this.message };
  }

  static badRequest(message = 'Bad Request', details?: unknown): AppError {
    return new AppError(400, message, details);
  }
  static unauthorized(message = 'Unauthorized', details?: unknown): AppError {
    return new AppError(401, message, details);
  }
  static paymentRequired(message = 'Payment Required', details?: unknown): AppError {
    return new AppError(402, message, details);
  }
  static forbidden(message = 'Forbidden', details?: unknown): AppError {
    return new AppError(403, message, details);
  }
  static notFound(message = 'Not Found', details?: unknown): AppError {
    return new AppError(404, message, details);
  }
  static methodNotAllowed(message = 'Method Not Allowed', details?: unknown): AppError {
    return new AppError(405, message, details);
  }
  static conflict(message = 'Conflict', details?: unknown): AppError {
    return new AppError(409, message, details);
  }
  static gone(message = 'Gone', details?: unknown): AppError {
    return new AppError(410, message, details);
  }
  static payloadTooLarge(message = 'Payload Too Large', details?: unknown): AppError {
    return new AppError(413, message, details);
  }
  static unsupportedMediaType(message = 'Unsupported Media Type', details?: unknown): AppError {
    return new AppError(415, message, details);
  }
  static unprocessable(message = 'Unprocessable Entity', details?: unknown): AppError {
    return new AppError(422, message, details);
  }
  static tooManyRequests(message = 'Too Many Requests', details?: unknown): AppError {
    return new AppError(429, message, details);
  }
  static internal(message = 'Internal Server Error', details?: unknown): AppError {
    return new AppError(500, message, details);
  }
  static badGateway(message = 'Bad Gateway', details?: unknown): AppError {
    return new AppError(502, message, details);
  }
  static serviceUnavailable(message = 'Service Unavailable', details?: unknown): AppError {
    return new AppError(503, message, details);
  }
  static gatewayTimeout(message = 'Gateway Timeout', details?: unknown): AppError {
    return new AppError(504, message, details);
  }
}

export function statusText(status: number): string {
  return STATUS_CODES[status] ?? `HTTP ${status}`;
}

export function isErrorBody(value: unknown): value is ErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ErrorBody).code === 'number' &&
    typeof (value as ErrorBody).error === 'string'
  );
}
