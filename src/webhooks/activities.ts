// The activities of the webhook execution workflow: thin calls into the webhooks feature.
import type { AppDeps } from '../api/deps.js';
import type { WebhookExecutionInput, WebhookExecutionOutcome } from '../workflows/webhook-execution.js';
import { createChannelSender } from '../channels/index.js';
import { deliverToChannel, runAssistantOnce, type ChannelDeliveryRequest } from './assistant-run.js';
import { readRunProgress, startRunForWebhook, type AutomationRunProgress } from './automation-run.js';
import { finishExecution, markExecutionRunning, type FinishExecution } from './executions.service.js';

export function createWebhookActivities(deps: AppDeps) {
  const sender = createChannelSender(deps);
  return {
    async markWebhookExecutionRunning(input: WebhookExecutionInput): Promise<void> {
      await markExecutionRunning(deps.orm.em.fork(), input, deps.clock.now());
    },

    async runAssistantForWebhook(input: WebhookExecutionInput & { assistantId: string }): Promise<WebhookExecutionOutcome & { channelCount: number }> {
      return runAssistantOnce(deps, input);
    },

    async deliverAssistantAnswer(request: ChannelDeliveryRequest): Promise<void> {
      await deliverToChannel(deps, sender, request);
    },

    async startAutomationRunForWebhook(input: WebhookExecutionInput): Promise<{ runId: string }> {
      return startRunForWebhook(deps, input);
    },

    async readAutomationRunProgress(request: { organizationId: string; runId: string }): Promise<AutomationRunProgress> {
      return readRunProgress(deps, request.organizationId, request.runId);
    },

    async finishWebhookExecution(finish: FinishExecution): Promise<void> {
      await finishExecution(deps.orm.em.fork(), finish, deps.clock.now());
    },
  };
}
