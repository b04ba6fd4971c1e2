// One server span per API request when traces are on (OTEL_EXPORTER_OTLP_ENDPOINT), active for
// everything the request does after it: the gateway's spans and the Temporal client's start
// calls nest under it, so a webhook's workflow and activities join the caller's trace. Mounted
// only when traces are on: off, the request path does not see it.
import type { RequestHandler } from 'express';
import { withRequestSpan } from '../../telemetry/tracing.js';

export function traceRequests(): RequestHandler {
  return (req, res, next) => {
    withRequestSpan(req, (finish) => {
      res.once('finish', () => finish(res.statusCode, req.route ? `${req.baseUrl}${String(req.route.path)}` : undefined));
      next();
    });
  };
}
