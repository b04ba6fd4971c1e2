// What every output channel receives: the output plus a delivery id that stays the same across
// retries, so the receiving side (and our own delivery record) can recognise a repeat. Two
// producers send: automation runs and assistants' webhook executions, each labelled as itself.
import type { ChannelType } from '../automations/entities.js';

/** The output of an automation run. `kind` may be omitted (the original message shape). */
export interface AutomationRunMessage {
  kind?: 'automation_run';
  /** `<runId>:<channelIndex>`: stable across activity retries. */
  deliveryId: string;
  automationId: string;
  automationName: string;
  runId: string;
  trigger: string;
  startedAt: string;
  output: string;
}

/** The answer of an assistant to a webhook call (no automation, no run involved). */
export interface AssistantWebhookMessage {
  kind: 'assistant_webhook';
  /** `<executionId>:<channelIndex>`: derived, never random, so stable across activity retries. */
  deliveryId: string;
  assistantId: string;
  assistantName: string;
  executionId: string;
  /** When the webhook call was acknowledged. */
  receivedAt: string;
  output: string;
}

export type ChannelMessage = AutomationRunMessage | AssistantWebhookMessage;

/** The label each channel shows: event name, title and a one-line reference. */
export function messageLabel(message: ChannelMessage): { event: string; kind: string; title: string; reference: string } {
  if (message.kind === 'assistant_webhook') {
    return {
      event: 'assistant.webhook.completed',
      kind: 'assistant_webhook',
      title: `[Assistant] ${message.assistantName}`,
      reference: `Webhook execution ${message.executionId} received ${message.receivedAt}`,
    };
  }
  return {
    event: 'automation.run.completed',
    kind: 'automation_run',
    title: `[Automation] ${message.automationName}`,
    reference: `Run ${message.runId} (${message.trigger}) started ${message.startedAt}`,
  };
}

export interface ChannelTarget {
  type: ChannelType;
  target: string;
  /** Plaintext webhook signing secret (decrypted just for the delivery). */
  secret?: string | undefined;
}

/** What the channel answered, kept as the delivery receipt (Slack ts, SMTP id, HTTP status). */
export type DeliveryReceipt = string;

/** A delivery failure that retrying cannot fix (bad token, unknown channel, 4xx). */
export class PermanentDeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentDeliveryError';
  }
}
