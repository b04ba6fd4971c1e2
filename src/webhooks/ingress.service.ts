// The webhook endpoint's use case: a POST to a webhook URL becomes a durable execution. The
// execution workflow is started (and acknowledged by Temporal) before the caller gets its 202,
// so an acknowledged execution is never lost. A repeat with the same Idempotency-Key maps to the
// same workflow id, and the start converges on the one execution however the repeats race.
//
// Latency: the ack path is the webhook's whole cost to its sender, so independent steps overlap.
// The two rate limits and the id lookup run together (answered in the order client limit, 404,
// webhook limit), and the execution record is written while Temporal records the start (it is
// there before the 202, so a status lookup right after the ack finds it; a failed start removes
// the record it wrote).
import type { EntityManager } from '@mikro-orm/postgresql';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { AppDeps } from '../runtime-deps.js';
import type { RateLimitDecision } from '../rate-limit/limiter.js';
import { badRequest, notFound } from '../errors.js';
import { plaintextSummary } from '../payloads/plaintext-summaries.js';
import { SEARCH_ATTRIBUTES, type TemporalHandle } from '../temporal.js';
import type { WebhookExecutionWorkflow, WebhookExecutionInput, WebhookExecutionTarget } from '../workflows/webhook-execution.contract.js';
import { forgetQueuedExecution, recordQueuedExecution } from './executions.service.js';
import { executionWorkflowId, hashWebhookId, idempotentExecutionId, isWellFormedWebhookId, randomExecutionId } from './webhook-ids.js';
import { tighterLimit, type WebhookRateLimiter } from './webhook-rate-limit.js';
import { findActiveWebhook, type ActiveWebhook } from './webhooks.service.js';
import { clientRateKey } from '../net/addresses.js';

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
  deps: Pick<AppDeps, 'orm' | 'temporal' | 'clock' | 'logger'>,
  limiter: WebhookRateLimiter,
  delivery: WebhookDelivery,
): Promise<{ acknowledgment: WebhookAcknowledgment; rateLimit: RateLimitDecision }> {
  const em = deps.orm.em.fork();
  const [clientLimit, found, webhookLimit] = await Promise.allSettled([
    limiter.consumeClient(clientRateKey(delivery.clientIp)),
    findActiveWebhook(em, delivery.webhookId),
    // Keyed by the digest of the URL id (what the lookup uses), so it need not wait for the lookup;
    // a malformed id names no webhook and is answered 404 without counting.
    isWellFormedWebhookId(delivery.webhookId) ? limiter.consumeWebhook(hashWebhookId(delivery.webhookId)) : null,
  ]);
  const clientDecision = settled(clientLimit);
  const webhook = settled(found);
  if (!webhook) throw notFound('Webhook');
  const webhookDecision = settled(webhookLimit) ?? clientDecision;
  const input: WebhookExecutionInput = {
    executionId: executionIdFor(webhook, delivery.idempotencyKey),
    organizationId: webhook.organizationId,
    webhookRecordId: webhook.id,
    target: targetOf(webhook),
    body: delivery.body,
    receivedAt: deps.clock.now().toISOString(),
  };
  await startAndRecord(deps, em, input);
  return {
    acknowledgment: { received: true, webhookId: delivery.webhookId, executionId: input.executionId, status: 'queued' },
    rateLimit: tighterLimit(clientDecision, webhookDecision),
  };
}

/** The value of a settled step, or its error thrown (429 of a limit, a failed lookup). */
function settled<T>(result: PromiseSettledResult<T>): T {
  if (result.status === 'rejected') throw result.reason;
  return result.value;
}

/**
 * Starts the execution workflow and writes its `queued` record at the same time; resolves once
 * both are done. If the start fails the caller gets an error (no 202), and the record this call
 * created is removed again so no execution that does not exist shows as queued.
 */
async function startAndRecord(deps: Pick<AppDeps, 'temporal' | 'logger'>, em: EntityManager, input: WebhookExecutionInput): Promise<void> {
  const recorded = recordQueuedExecution(em, input);
  try {
    await startExecutionWorkflow(deps.temporal, input);
  } catch (error) {
    const created = await recorded.catch(() => false);
    if (created) {
      await forgetQueuedExecution(em, input.executionId).catch((cleanupError: unknown) => {
        deps.logger.warn({ err: cleanupError, executionId: input.executionId }, 'could not remove the record of an execution that did not start');
      });
    }
    throw error;
  }
  await recorded;
}

function executionIdFor(webhook: ActiveWebhook, idempotencyKey: string | undefined): string {
  if (idempotencyKey === undefined) return randomExecutionId();
  if (!IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey)) {
    throw badRequest('Idempotency-Key must be 1 to 255 printable ASCII characters', 'Idempotency-Key');
  }
  return idempotentExecutionId(webhook.id, idempotencyKey);
}

function targetOf(webhook: ActiveWebhook): WebhookExecutionTarget {
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
    await temporal.clientFor(input.organizationId).workflow.start<WebhookExecutionWorkflow>('webhookExecutionWorkflow', {
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
      staticSummary: plaintextSummary(target.kind === 'assistant'
        ? `Webhook execution of assistant ${target.assistantId}`
        : `Webhook execution of automation ${target.automationId}`),
    });
  } catch (error) {
    // The same Idempotency-Key after the first execution finished: that execution is the answer.
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}
