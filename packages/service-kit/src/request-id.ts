import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { context, createContextKey, type Context } from '@opentelemetry/api';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Short and printable only: an id is echoed in headers and logs, so it must not smuggle in anything else. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const requestIdKey = createContextKey('productgen.request_id');

/** The caller's X-Request-Id when sane, else a fresh UUID; echoed on the response and carried by the request's log lines. */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const offered = req.headers[REQUEST_ID_HEADER];
  const requestId = typeof offered === 'string' && SANE_REQUEST_ID.test(offered) ? offered : randomUUID();
  res.setHeader('X-Request-Id', requestId);
  return requestId;
}

export function contextWithRequestId(requestId: string, ctx: Context = context.active()): Context {
  return ctx.setValue(requestIdKey, requestId);
}

/** The id of the request being served (set by the HTTP app), for logs and onward calls. */
export function currentRequestId(): string | undefined {
  const value = context.active().getValue(requestIdKey);
  return typeof value === 'string' ? value : undefined;
}
