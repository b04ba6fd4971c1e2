// The assistant step of a webhook execution: the assistant answers once, through the gateway
// core, with the webhook body as its context. Gateway errors become activity failures that say
// whether a retry can help.
import { ApplicationFailure } from '@temporalio/activity';
import type { AppDeps } from '../api/deps.js';
import { loadAssistantForRun } from '../assistants/assistants.service.js';
import { PermanentDeliveryError, type ChannelSender } from '../channels/index.js';
import { AppError } from '../errors.js';
import { resolveSkillVersion } from '../skills/skills.service.js';
import type { WebhookExecutionInput, WebhookExecutionOutcome } from '../workflows/webhook-execution.js';

/** Runs the assistant once with the webhook body as context, through the gateway core. */
export async function runAssistantOnce(
  deps: Pick<AppDeps, 'orm' | 'gateway'>,
  input: WebhookExecutionInput & { assistantId: string },
): Promise<WebhookExecutionOutcome & { channelCount: number }> {
  const assistant = await loadAssistantForRun(deps.orm.em.fork(), input.organizationId, input.assistantId);
  if (!assistant) throw ApplicationFailure.nonRetryable('The assistant of this webhook no longer exists', 'not_found');
  try {
    // A skill contributes its current version's instructions before the assistant's own.
    const skill = assistant.skillId
      ? await resolveSkillVersion(deps.orm.em.fork(), { organizationId: assistant.organizationId, userId: assistant.createdBy }, assistant.skillId)
      : undefined;
    const result = await deps.gateway.complete(
      {
        model: assistant.model,
        messages: [
          ...(skill ? [{ role: 'system' as const, content: skill.systemPrompt }] : []),
          { role: 'system', content: assistant.systemPrompt },
          { role: 'user', content: webhookContext(input.body) },
        ],
      },
      { organizationId: input.organizationId, userId: assistant.createdBy, source: 'webhook', runId: input.executionId },
    );
    return {
      output: result.content ?? '',
      model: result.model,
      usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens, cost: result.cost },
      channelCount: assistant.channels.length,
    };
  } catch (error) {
    throw asActivityFailure(error);
  }
}

export interface ChannelDeliveryRequest {
  executionId: string;
  organizationId: string;
  assistantId: string;
  channelIndex: number;
  output: string;
  receivedAt: string;
}

/**
 * Delivers the answer to one channel of the assistant. One activity per channel, so a retry
 * repeats only the channel that failed; the delivery id stays the same across retries.
 */
export async function deliverToChannel(
  deps: Pick<AppDeps, 'orm' | 'secrets'>,
  sender: ChannelSender,
  request: ChannelDeliveryRequest,
): Promise<void> {
  const assistant = await loadAssistantForRun(deps.orm.em.fork(), request.organizationId, request.assistantId);
  const channel = assistant?.channels[request.channelIndex];
  if (!assistant || !channel) return; // changed since the run: nothing left to deliver to
  try {
    await sender.send(
      { type: channel.type, target: channel.target, secret: channel.encryptedSecret ? deps.secrets.decrypt(channel.encryptedSecret) : undefined },
      {
        deliveryId: `${request.executionId}:${request.channelIndex}`,
        automationId: assistant.id,
        automationName: assistant.name,
        runId: request.executionId,
        trigger: 'webhook',
        startedAt: request.receivedAt,
        output: request.output,
      },
    );
  } catch (error) {
    if (error instanceof PermanentDeliveryError) {
      throw ApplicationFailure.nonRetryable(`Delivery to ${channel.type} channel ${request.channelIndex} failed: ${error.message}`, 'delivery_failed');
    }
    throw error;
  }
}

/** The user message the model sees: the request body, verbatim as JSON. */
export function webhookContext(body: unknown): string {
  return `A webhook delivered this JSON payload:\n\n${JSON.stringify(body, null, 2)}`;
}

/** Client-side gateway errors (budget, DLP, bad model) will not pass on a retry; upstream ones may. */
export function asActivityFailure(error: unknown): unknown {
  if (!(error instanceof AppError)) return error;
  return ApplicationFailure.create({ message: error.message, type: error.code, nonRetryable: error.status < 500 });
}
