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
    req.startedAt = performance.now();
    const requestId = requestIdOf(req.get('x-request-id'));
    req.requestId = requestId;
    req.log = logger.child({ requestId });
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      // Route patterns keep the label set bounded; unmatched paths share one label.
      const route = req.route?.path ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched';
      // Webhook URL ids are credentials: unmatched paths (415, 413 before routing) are masked.
      logRequest(logger, () => req.log, started, { method: req.method, route, path: route === 'unmatched' ? maskWebhookIds(req.path) : route, status: res.statusCode, organizationId: req.caller?.organizationId });
    });
    next();
  };
}

/** A sane incoming X-Request-Id, else a new one. */
export function requestIdOf(incoming: string | undefined): string {
  return incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * The request's duration metric and its access-log line, once the response finished. `log` gives
 * the request's logger (made on demand by the fast path); `base` decides whether the line is
 * logged at all, so a request whose line is below the level makes no logger.
 */
export function logRequest(
  base: Logger,
  log: () => Logger,
  started: bigint,
  request: { method: string; route: string; path: string; status: number; organizationId: string | undefined },
): void {
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  metrics.httpRequestDuration.observe({ method: request.method, route: request.route, status: String(request.status) }, ms / 1000);
  const level = request.status >= 500 ? 'error' : 'info';
  if (!base.isLevelEnabled(level)) return;
  const logger = log();
  if (!logger.isLevelEnabled(level)) return;
  logger[level]({ method: request.method, path: request.path, status: request.status, ms: Math.round(ms * 100) / 100, organizationId: request.organizationId }, 'request');
}
