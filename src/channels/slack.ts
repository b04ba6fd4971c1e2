// Slack channel: `chat.postMessage` of the Web API with the channel's own bot token (its
// organization's Slack app, stored encrypted with the channel: src/channels/stored.ts), to the
// named channel. Slack has no idempotency key, so the caller's delivery record is what prevents a
// second post on retry.
import { request } from 'undici';
import type { ChannelMessage, DeliveryReceipt } from './types.js';
import { messageLabel, PermanentDeliveryError, producerName } from './types.js';

export interface SlackSettings {
  apiUrl: string;
  /** The channel's own token (its organization's Slack app). */
  botToken: string | undefined;
}

/** Slack errors that a retry does not fix. */
const PERMANENT_SLACK_ERRORS = new Set([
  'channel_not_found', 'not_in_channel', 'is_archived', 'invalid_auth', 'not_authed', 'account_inactive',
  'token_revoked', 'missing_scope', 'msg_too_long', 'no_text', 'restricted_action',
]);

export async function postToSlack(settings: SlackSettings, channel: string, message: ChannelMessage): Promise<DeliveryReceipt> {
  // A channel saved before channels carried their organization's token: the owner must give one.
  if (!settings.botToken) throw new PermanentDeliveryError("This Slack channel has no bot token of its organization's; its owner saves the channel again with `token`");
  const response = await request(`${settings.apiUrl.replace(/\/+$/, '')}/chat.postMessage`, {
    method: 'POST',
    headers: { authorization: `Bearer ${settings.botToken}`, 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({
      channel,
      text: `*${producerName(message)}*\n${message.output}`,
      unfurl_links: false,
      metadata: { event_type: messageLabel(message).kind, event_payload: { delivery_id: message.deliveryId, run_id: sourceIdOf(message) } },
    }),
    headersTimeout: 15_000,
    bodyTimeout: 15_000,
  });
  const text = await response.body.text();
  if (response.statusCode === 429 || response.statusCode >= 500) {
    throw new Error(`Slack answered HTTP ${response.statusCode}`);
  }
  const body = safeJson(text);
  if (!body?.ok) {
    const code = typeof body?.error === 'string' ? body.error : `http_${response.statusCode}`;
    if (PERMANENT_SLACK_ERRORS.has(code) || (response.statusCode >= 400 && response.statusCode < 500)) {
      throw new PermanentDeliveryError(`Slack refused the message: ${code}`);
    }
    throw new Error(`Slack refused the message: ${code}`);
  }
  return `slack ts=${String(body.ts ?? '')}`;
}

function safeJson(text: string): { ok?: boolean; error?: unknown; ts?: unknown } | undefined {
  try {
    return JSON.parse(text) as { ok?: boolean; error?: unknown; ts?: unknown };
  } catch {
    return undefined;
  }
}

/** The run (or webhook execution) the message belongs to. */
function sourceIdOf(message: ChannelMessage): string {
  if (message.kind === 'assistant_webhook') return message.executionId;
  if (message.kind === 'approval_requested') return 'runId' in message.subject ? message.subject.runId : message.subject.executionId;
  return message.runId;
}
