// The webhook endpoint's use case: a POST to a webhook URL becomes a durable execution. The
// execution workflow is started (and acknowledged by Temporal) before the caller gets its 202,
// so an acknowledged execution is never lost. A repeat with the same Idempotency-Key maps to the
// same workflow id, and the start converges on the one execution however the repeats race.
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { AppDeps } from '../api/deps.js';
import type { RateLimitDecision } from '../api/middleware/rate-limit.js';
import { badRequest, notFound } from '../errors.js';
import { SEARCH_ATTRIBUTES, type TemporalHandle } from '../temporal.js';
import type { webhookExecutionWorkflow, WebhookExecutionInput, WebhookExecutionTarget } from '../workflows/webhook-execution.js';
import type { Webhook } from './entities.js';
import { recordQueuedExecution } from './executions.service.js';
import { executionWorkflowId, idempotentExecutionId, randomExecutionId } from './webhook-ids.js';
import { tighterLimit, type WebhookRateLimiter } from './webhook-rate-limit.js';
import { findActiveWebhook } from './webhooks.service.js';

export interface WebhookDelivery {
  /** The id from the URL: the credential. */
  webhookId: string;
  body: unknown;
  idempotencyKey?: string | undefined;
  clientIp: string;
}

export interface WebhookAcknowledgment {
  received: true;
  webhookId: string;
  executionId: string;
  status: 'queued';
}

const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export async function receiveWebhook(
  deps: Pick<AppDeps, 'orm' | 'temporal' | 'clock'>,
  limiter: WebhookRateLimiter,
  delivery: WebhookDelivery,
): Promise<{ acknowledgment: WebhookAcknowledgment; rateLimit: RateLimitDecision }> {
  const clientLimit = await limiter.consumeClient(delivery.clientIp);
  const em = deps.orm.em.fork();
  const webhook = await findActiveWebhook(em, delivery.webhookId);
  if (!webhook) throw notFound('Webhook');
  const webhookLimit = await limiter.consumeWebhook(webhook.id);
  const input: WebhookExecutionInput = {
    executionId: executionIdFor(webhook, delivery.idempotencyKey),
    organizationId: webhook.organizationId,
    webhookRecordId: webhook.id,
    target: targetOf(webhook),
    body: delivery.body,
    receivedAt: deps.clock.now().toISOString(),
  };
  await startExecutionWorkflow(deps.temporal, input);
  await recordQueuedExecution(em, input);
  return {
    acknowledgment: { received: true, webhookId: delivery.webhookId, executionId: input.executionId, status: 'queued' },
    rateLimit: tighterLimit(clientLimit, webhookLimit),
  };
}

function executionIdFor(webhook: Webhook, idempotencyKey: string | undefined): string {
  if (idempotencyKey === undefined) return randomExecutionId();
  if (!IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey)) {
    throw badRequest('Idempotency-Key must be 1 to 255 printable ASCII characters', 'Idempotency-Key');
  }
  return idempotentExecutionId(webhook.id, idempotencyKey);
}

function targetOf(webhook: Webhook): WebhookExecutionTarget {
  return webhook.assistantId
    ? { kind: 'assistant', assistantId: webhook.assistantId }
    : { kind: 'automation', automationId: webhook.automationId! };
}

/**
 * Starts `webhook/<executionId>`; resolves once Temporal has recorded the start. A running
 * execution with that id is reused (concurrent repeats); a finished one is not started again.
 */
async function startExecutionWorkflow(temporal: TemporalHandle, input: WebhookExecutionInput): Promise<void> {
  const { target } = input;
  try {
    await temporal.client.workflow.start<typeof webhookExecutionWorkflow>('webhookExecutionWorkflow', {
      workflowId: executionWorkflowId(input.executionId),
      taskQueue: temporal.taskQueue,
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      typedSearchAttributes: [
        { key: SEARCH_ATTRIBUTES.OrganizationId, value: input.organizationId },
        { key: SEARCH_ATTRIBUTES.TriggerType, value: 'webhook' },
        ...(target.kind === 'automation' ? [{ key: SEARCH_ATTRIBUTES.AutomationId, value: target.automationId }] : []),
      ],
      staticSummary: target.kind === 'assistant'
        ? `Webhook execution of assistant ${target.assistantId}`
        : `Webhook execution of automation ${target.automationId}`,
    });
  } catch (error) {
    // The same Idempotency-Key after the first execution finished: that execution is the answer.
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}
