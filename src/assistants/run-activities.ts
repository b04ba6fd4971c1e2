// The activities of an assistant's webhook execution (src/workflows/webhook-execution.ts): thin
// calls into ./assistant-run.ts, on the one agent-run pipeline. Their names are in recorded
// histories: they stay.
import type { AppDeps } from '../runtime-deps.js';
import { createChannelSender } from '../channels/index.js';
import type { ConnectionTools, ToolBinding, ToolCallResult } from '../connectors/tool-use.js';
import {
  callAssistantTool,
  deliverToChannel,
  listAssistantTools,
  runAssistantOnce,
  scanWebhookInput,
  type AssistantPlan,
  type AssistantStepInput,
  type AssistantStepResult,
  type ChannelDeliveryRequest,
} from './assistant-run.js';

export function createAssistantRunActivities(deps: AppDeps) {
  const sender = createChannelSender(deps);
  return {
    async scanWebhookInput(input: { organizationId: string; assistantId: string; body: unknown }): Promise<void> {
      await scanWebhookInput(deps, input);
    },

    /** One model call (heartbeats, and stops its upstream call when the execution is cancelled). */
    async runAssistantForWebhook(input: AssistantStepInput): Promise<AssistantStepResult> {
      return runAssistantOnce(deps, input);
    },

    async listAssistantTools(input: { organizationId: string; assistantId: string }): Promise<ConnectionTools & { skillVersion: number | null; plan: AssistantPlan }> {
      return listAssistantTools(deps, input);
    },

    async callAssistantTool(input: { executionId: string; organizationId: string; binding: ToolBinding; arguments: string }): Promise<ToolCallResult> {
      return callAssistantTool(deps, input);
    },

    async deliverAssistantAnswer(request: ChannelDeliveryRequest): Promise<void> {
      await deliverToChannel(deps, sender, request);
    },
  };
}
