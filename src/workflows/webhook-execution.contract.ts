// The contract of the webhook execution workflow (`webhook/<executionId>`, in
// ./webhook-execution.ts): its input and outcome, and the signal a run of an automation sends it
// when it ends. The webhooks feature (ingress, activities, execution records) imports this file
// and never the workflow code. Types and workflow-safe definitions only.
import { defineSignal } from '@temporalio/workflow';

export type WebhookExecutionTarget =
  | { kind: 'assistant'; assistantId: string }
  | { kind: 'automation'; automationId: string };

export interface WebhookExecutionInput {
  executionId: string;
  organizationId: string;
  /** The webhook record id (never the URL id, which is a credential). */
  webhookRecordId: string;
  target: WebhookExecutionTarget;
  /** The JSON request body: the context of the run. */
  body: unknown;
  receivedAt: string;
}

export interface WebhookExecutionOutcome {
  output: string | null;
  model?: string | undefined;
  runId?: string | undefined;
  usage?: { inputTokens: number; outputTokens: number; cost: number } | undefined;
}

/** The workflow's signature, for typed client calls by name. */
export type WebhookExecutionWorkflow = (input: WebhookExecutionInput) => Promise<WebhookExecutionOutcome>;

/** How a run of an automation ended, as the run tells the execution that started it. */
export interface AutomationRunEnded {
  runId: string;
  status: 'success' | 'failure';
  output: string | null;
  error: string | null;
  usage: { inputTokens: number; outputTokens: number; cost: number };
}

/** Sent by `run/<runId>` to the `webhook/<executionId>` named in its input (`notify`) when it ends. */
export const automationRunEndedSignal = defineSignal<[AutomationRunEnded]>('automationRunEnded');
