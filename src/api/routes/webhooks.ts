// Webhooks: the unauthenticated ingress (POST /v1/webhooks/{webhook_id}, the URL id is the
// credential), the authenticated execution status lookup, and the webhooks of automations.
import { Router } from 'express';
import { AppError } from '../../errors.js';
import {
  createAutomationWebhook,
  listAutomationWebhooks,
  revokeAutomationWebhook,
} from '../../automations/automation-webhooks.service.js';
import { getExecution } from '../../webhooks/executions.service.js';
import { receiveWebhook } from '../../webhooks/ingress.service.js';
import { createWebhookRateLimiter } from '../../webhooks/webhook-rate-limit.js';
import { metrics } from '../../metrics.js';
import type { AppDeps } from '../../runtime-deps.js';
import { callerOf } from '../middleware/auth.js';
import { setRateLimitHeaders } from '../middleware/rate-limit.js';

/** Mounted before authentication. */
export function webhookIngressRoutes(deps: AppDeps): Router {
  const router = Router();
  const limiter = createWebhookRateLimiter(deps);

  router.post('/webhooks/:webhookId', async (req, res) => {
    // The JSON body parser ran before: a body it did not parse is not JSON.
    if (req.body === undefined) {
      throw new AppError('unsupported_media_type', 'Webhook body must be JSON (Content-Type: application/json)');
    }
    const { acknowledgment, rateLimit } = await receiveWebhook(deps, limiter, {
      webhookId: req.params.webhookId,
      body: req.body,
      idempotencyKey: req.get('idempotency-key'),
      clientIp: req.ip ?? req.socket.remoteAddress ?? 'unknown',
    });
    setRateLimitHeaders(res, rateLimit);
    metrics.webhookAcks.inc();
    res.status(202).json(acknowledgment);
  });

  return router;
}

export function webhookRoutes(deps: AppDeps): Router {
  const router = Router();

  router.get('/webhooks/executions/:executionId', async (req, res) => {
    res.json(await getExecution(deps, callerOf(req), req.params.executionId));
  });

  router.post('/automations/:id/webhooks', async (req, res) => {
    res.status(201).json(await createAutomationWebhook(deps, callerOf(req), req.params.id, { requestId: req.requestId }));
  });

  router.get('/automations/:id/webhooks', async (req, res) => {
    res.json(await listAutomationWebhooks(deps, callerOf(req), req.params.id));
  });

  router.delete('/automations/:id/webhooks/:webhookId', async (req, res) => {
    await revokeAutomationWebhook(deps, callerOf(req), req.params.id, req.params.webhookId, { requestId: req.requestId });
    res.status(204).end();
  });

  return router;
}
