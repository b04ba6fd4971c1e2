// The activities of the webhook execution workflow: thin calls into the webhooks feature.
import { whileHeartbeating } from '../heartbeat.js';
import type { AppDeps } from '../runtime-deps.js';
import type { ToolCall } from '../gateway/types.js';
import type { WebhookExecutionInput, WebhookExecutionOutcome } from '../workflows/webhook-execution.contract.js';
import { createChannelSender } from '../channels/index.js';
import type { ConnectionTools, ToolBinding, ToolCallResult } from '../connectors/tool-use.js';
import {
  callAssistantTool,
  deliverToChannel,
  listAssistantTools,
  runAssistantOnce,
  scanWebhookInput,
  type AssistantStepInput,
  type ChannelDeliveryRequest,
} from './assistant-run.js';
import { readRunProgress, startRunForWebhook, type AutomationRunProgress } from './automation-run.js';
import { finishExecution, markExecutionRunning, type FinishExecution } from './executions.service.js';

export function createWebhookActivities(deps: AppDeps) {
  const sender = createChannelSender(deps);
  return {
    async markWebhookExecutionRunning(input: WebhookExecutionInput): Promise<void> {
      await markExecutionRunning(deps.orm.em.fork(), input, deps.clock.now());
    },

    async scanWebhookInput(input: { organizationId: string; assistantId: string; body: unknown }): Promise<void> {
      await scanWebhookInput(deps, input);
    },

    async runAssistantForWebhook(input: AssistantStepInput): Promise<WebhookExecutionOutcome & { channelCount: number; toolCalls: ToolCall[] }> {
      // Heartbeats let Temporal notice a lost worker within the heartbeat timeout, not the 3 minutes.
      return whileHeartbeating(() => runAssistantOnce(deps, input));
    },

    async listAssistantTools(input: { organizationId: string; assistantId: string }): Promise<ConnectionTools & { skillVersion: number | null }> {
      return listAssistantTools(deps, input);
    },

    async callAssistantTool(input: { executionId: string; organizationId: string; binding: ToolBinding; arguments: string }): Promise<ToolCallResult> {
      return callAssistantTool(deps, input);
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
