// Gives every request an id (echoing a sane incoming X-Request-Id), a child logger carrying it,
// and one access-log line when the response finishes.
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '../../logger.js';
import { metrics } from '../../metrics.js';
import { maskWebhookIds } from '../../webhooks/webhook-ids.js';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    const requestId = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    req.requestId = requestId;
    req.log = logger.child({ requestId });
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // Route patterns keep the label set bounded; unmatched paths share one label.
      const route = req.route?.path ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched';
      metrics.httpRequestDuration.observe({ method: req.method, route, status: String(res.statusCode) }, ms / 1000);
      const level = res.statusCode >= 500 ? 'error' : 'info';
      req.log[level]({
        method: req.method,
        // Webhook URL ids are credentials: unmatched paths (415, 413 before routing) are masked.
        path: route === 'unmatched' ? maskWebhookIds(req.path) : route,
        status: res.statusCode,
        ms: Math.round(ms * 100) / 100,
        organizationId: req.caller?.organizationId,
      }, 'request');
    });
    next();
  };
}
