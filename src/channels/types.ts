// What every output channel receives: the output plus a delivery id that stays the same across
// retries, so the receiving side (and our own delivery record) can recognise a repeat. Three
// producers send: automation runs and assistants' webhook executions, each labelled as itself, and
// approval requests of either (the tool call, its arguments and two signed links).

export const CHANNEL_TYPES = ['slack', 'email', 'webhook'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** A channel as an automation or an assistant stores it: a webhook's signing secret or a Slack channel's bot token encrypted (SecretBox). */
export interface StoredChannel {
  type: ChannelType;
  target: string;
  encryptedSecret?: string;
}

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

/** A tool call waiting for a person: the tool, its (DLP-masked) arguments and the two signed links. */
export interface ApprovalRequestedMessage {
  kind: 'approval_requested';
  /** `approval:<approvalId>:<channelIndex>`. */
  deliveryId: string;
  approvalId: string;
  /** The automation's or assistant's name. */
  subjectName: string;
  subject: { automationId: string; runId: string } | { assistantId: string; executionId: string };
  tool: string;
  arguments: string;
  expiresAt: string;
  approveUrl: string;
  denyUrl: string;
  /** The text Slack and email show (tool, arguments, both links). */
  output: string;
}

export type ChannelMessage = AutomationRunMessage | AssistantWebhookMessage | ApprovalRequestedMessage;

/** The name of what produced the message: the automation or the assistant. */
export function producerName(message: ChannelMessage): string {
  if (message.kind === 'assistant_webhook') return message.assistantName;
  if (message.kind === 'approval_requested') return message.subjectName;
  return message.automationName;
}

/** The label each channel shows: event name, title and a one-line reference. */
export function messageLabel(message: ChannelMessage): { event: string; kind: string; title: string; reference: string } {
  if (message.kind === 'approval_requested') {
    return {
      event: 'approval.requested',
      kind: 'approval_requested',
      title: `[Approval needed] ${message.subjectName}: ${message.tool}`,
      reference: `Approval ${message.approvalId}, expires ${message.expiresAt}`,
    };
  }
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
  /** Plaintext webhook signing secret or Slack bot token (decrypted just for the delivery). */
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
