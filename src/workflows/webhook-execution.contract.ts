// The contract of the webhook execution workflow (`webhook/<executionId>`, in
// ./webhook-execution.ts): its input and outcome. The webhooks feature (ingress, activities,
// execution records) imports this file and never the workflow code. Types only.

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
