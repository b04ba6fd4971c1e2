// The one place errors become responses: every failure leaves as the OpenAI-shaped body with
// the status from the code table. Unknown failures are logged with their stack and answered as
// 500 internal_error without one.
import type { ServerResponse } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { isDatabaseUnreachable } from '../../db/availability.js';
import { AppError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { isTemporalUnavailable, TEMPORAL_RETRY_AFTER_SECONDS } from '../../temporal.js';
import { sendJson, type ErrorRenderer } from '../gateway-call.js';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  limit?: number;
}

function toAppError(error: unknown, bodyLimit: number): AppError {
  if (error instanceof AppError) return error;
  if (isDatabaseUnreachable(error)) {
    return new AppError('service_unavailable', 'The database is not reachable; retry later', { cause: error, headers: { 'Retry-After': '1' } });
  }
  if (isTemporalUnavailable(error)) {
    return new AppError('service_unavailable', 'The workflow service (Temporal) is not reachable; retry later', {
      cause: error, headers: { 'Retry-After': String(TEMPORAL_RETRY_AFTER_SECONDS) },
    });
  }
  // The router could not percent-decode a path parameter (`/skills/%E0%A4%A`). Its message
  // quotes the raw value, which is not echoed back.
  if (error instanceof URIError) return new AppError('bad_request', 'The URL path has malformed percent-encoding', { param: 'path' });
  const e = error as BodyParserError;
  switch (e?.type) {
    case 'entity.parse.failed':
      return new AppError('bad_request', 'Request body is not valid JSON', { param: 'body' });
    case 'entity.too.large':
      return new AppError('payload_too_large', `Request body exceeds the limit of ${bodyLimit} bytes`);
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new AppError('unsupported_media_type', 'Unsupported body charset or encoding');
    case 'request.aborted':
      return new AppError('bad_request', 'Request aborted');
    default:
      // Other client errors of the body reader (a gzip/deflate body that does not inflate, a
      // length that does not match): the request is at fault, not the server.
      if (e?.status === 400 && (e as { expose?: boolean }).expose === true) {
        return new AppError('bad_request', 'Request body could not be read (check Content-Encoding and Content-Length)', { param: 'body' });
      }
      return new AppError('internal_error', 'Internal server error', { cause: error });
  }
}

export function errorHandler(bodyLimit: number, render?: ErrorRenderer): ErrorRequestHandler {
  return (error, req, res, _next) => sendError(res, error, req.log, bodyLimit, render);
}

/** Answers a failure (or ends a stream that already started); logs what is not the client's fault. `render`: a wire format's own error shape. */
export function sendError(res: ServerResponse, error: unknown, log: Logger, bodyLimit: number, render?: ErrorRenderer): void {
  const appError = toAppError(error, bodyLimit);
  if (appError.code === 'internal_error') {
    log.error({ err: error }, 'unhandled error');
  } else if (appError.cause !== undefined && appError.code === 'service_unavailable' && !(error instanceof AppError)) {
    // The kind only: driver errors may quote the query's values.
    log.warn({ error: (error as Error).name, code: (error as { code?: unknown }).code }, appError.message);
  }
  if (res.headersSent) {
    // A stream already started: nothing to send but the end of it.
    res.end();
    return;
  }
  for (const [name, value] of Object.entries(appError.headers)) res.setHeader(name, value);
  // A dependency of ours is down: say when to try again, whichever service noticed it.
  if (appError.code === 'service_unavailable' && !res.hasHeader('retry-after')) res.setHeader('Retry-After', '1');
  if (render) {
    const rendered = render(appError);
    sendJson(res, rendered.status, rendered.body);
    return;
  }
  sendJson(res, appError.status, appError.toBody());
}

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new AppError('not_found', `No route for ${req.method} ${req.path}`));
};
