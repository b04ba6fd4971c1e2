// Webhook channel: a JSON POST signed as docs/design.md says. X-Service-Signature is
// `sha256=<hex HMAC-SHA256 of the exact body bytes>` with the channel's secret;
// X-Service-Timestamp is the attempt time; X-Service-Signature-V2 is
// `sha256=<hex HMAC-SHA256 of "<X-Service-Timestamp>.<body>">`, so a captured delivery cannot be
// replayed later under a fresh timestamp (receivers check the timestamp is within 5 minutes,
// docs/automations.md "Channels"); X-Service-Delivery-Id is stable across retries, so a receiver can drop a repeat;
// X-Service-Event names what produced it (an automation run or an assistant's webhook execution).
// The body is built from the message alone: every retry sends the same bytes.
import { createHmac } from 'node:crypto';
import type { Agent } from 'undici';
import { request } from 'undici';
import { assertPublicUrl } from './safe-target.js';
import type { ChannelMessage, DeliveryReceipt } from './types.js';
import { messageLabel, PermanentDeliveryError } from './types.js';

export const WEBHOOK_EVENT = 'automation.run.completed';
export const ASSISTANT_WEBHOOK_EVENT = 'assistant.webhook.completed';

export function webhookBody(message: ChannelMessage): string {
  if (message.kind === 'approval_requested') {
    return JSON.stringify({
      id: message.deliveryId,
      event: messageLabel(message).event,
      data: {
        approvalId: message.approvalId,
        ...message.subject,
        name: message.subjectName,
        tool: message.tool,
        arguments: message.arguments,
        expiresAt: message.expiresAt,
        approveUrl: message.approveUrl,
        denyUrl: message.denyUrl,
      },
    });
  }
  if (message.kind === 'assistant_webhook') {
    return JSON.stringify({
      id: message.deliveryId,
      event: ASSISTANT_WEBHOOK_EVENT,
      data: {
        assistantId: message.assistantId,
        assistantName: message.assistantName,
        executionId: message.executionId,
        receivedAt: message.receivedAt,
        output: message.output,
      },
    });
  }
  return JSON.stringify({
    id: message.deliveryId,
    event: WEBHOOK_EVENT,
    data: {
      automationId: message.automationId,
      automationName: message.automationName,
      runId: message.runId,
      trigger: message.trigger,
      startedAt: message.startedAt,
      output: message.output,
    },
  });
}

export function signBody(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** X-Service-Signature-V2: the HMAC covers the timestamp header too (`<timestamp>.<body>`). */
export function signTimestampedBody(secret: string, timestamp: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')}`;
}

export async function postWebhook(
  options: { dispatcher: Agent; allowPrivateTargets: boolean; now: Date },
  target: string,
  secret: string,
  message: ChannelMessage,
): Promise<DeliveryReceipt> {
  const url = new URL(target);
  if (!options.allowPrivateTargets) assertPublicUrl(url);
  const body = webhookBody(message);
  const timestamp = String(Math.floor(options.now.getTime() / 1000));
  const response = await request(url, {
    method: 'POST',
    dispatcher: options.dispatcher,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'ai-workspace-webhooks/1',
      'x-service-signature': signBody(secret, body),
      'x-service-signature-v2': signTimestampedBody(secret, timestamp, body),
      'x-service-timestamp': timestamp,
      'x-service-delivery-id': message.deliveryId,
      'x-service-event': messageLabel(message).event,
    },
    body,
    headersTimeout: 20_000,
    bodyTimeout: 20_000,
  });
  await response.body.dump();
  const status = response.statusCode;
  if (status >= 200 && status < 300) return `http ${status}`;
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
    throw new PermanentDeliveryError(`Webhook target answered HTTP ${status}`);
  }
  throw new Error(`Webhook target answered HTTP ${status}`);
}
