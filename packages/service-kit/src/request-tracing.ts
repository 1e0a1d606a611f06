import type { RequestHandler } from 'express';
import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { assignRequestId, contextWithRequestId } from './request-id';
import { extractTraceContext, getTracer, injectTraceHeaders } from './telemetry';

/**
 * One SERVER span per request, continuing the caller's W3C traceparent, and the request id: both become part of
 * the active context for everything the request does, and both are echoed on the response
 * (`traceparent`, `X-Request-Id`).
 */
export function traceRequests(): RequestHandler {
  return (req, res, next) => {
    const requestId = assignRequestId(req, res);
    req.id = requestId;

    const parent = extractTraceContext(req.headers, ROOT_CONTEXT);
    const span = getTracer().startSpan(
      `${req.method}`,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method, 'url.path': req.path } },
      parent,
    );
    const requestContext = contextWithRequestId(requestId, trace.setSpan(parent, span));

    // Without a valid span context (no SDK and no incoming traceparent) there is nothing to echo.
    if (trace.isSpanContextValid(span.spanContext())) {
      const traceHeaders = injectTraceHeaders<Record<string, string>>({}, requestContext);
      if (traceHeaders.traceparent) res.setHeader('traceparent', traceHeaders.traceparent);
    }

    // A span that records nothing (no SDK, or not sampled) takes no attributes and its end does nothing: no
    // listener per request for it.
    if (span.isRecording()) {
      res.once('close', () => {
        const route = req.route as { path?: unknown } | undefined;
        if (typeof route?.path === 'string') {
          const httpRoute = `${req.baseUrl}${route.path}`;
          span.setAttribute('http.route', httpRoute);
          span.updateName(`${req.method} ${httpRoute}`);
        }
        span.setAttribute('http.response.status_code', res.statusCode);
        if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        if (!res.writableFinished) span.setAttribute('http.aborted', true);
        span.end();
      });
    }

    context.with(requestContext, next);
  };
}
