// Webhook URL ids and execution ids. A URL id is the credential of an unauthenticated endpoint:
// 192 random bits, base64url, stored only hashed (and encrypted for display). Execution ids are
// random, or derived from the webhook and an Idempotency-Key so that repeats converge on one
// workflow id (`webhook/<executionId>`) without any lookup.
import { createHash, randomBytes } from 'node:crypto';

const WEBHOOK_ID_PREFIX = 'wh_';
export const WEBHOOK_ID_PATTERN = /^wh_[A-Za-z0-9_-]{32}$/;
const EXECUTION_ID_PREFIX = 'wex_';
/** 128 bits, base64url: both the random and the Idempotency-Key-derived execution ids. */
export const EXECUTION_ID_PATTERN = /^wex_[A-Za-z0-9_-]{22}$/;
/** Characters of a URL id that may appear in logs and lists. */
const HINT_LENGTH = WEBHOOK_ID_PREFIX.length + 4;

export function generateWebhookId(): string {
  return WEBHOOK_ID_PREFIX + randomBytes(24).toString('base64url');
}

/** Cheap shape check before any lookup: malformed ids are unknown ids. */
export function isWellFormedWebhookId(id: string): boolean {
  return WEBHOOK_ID_PATTERN.test(id);
}

export function hashWebhookId(id: string): string {
  return createHash('sha256').update(id, 'utf8').digest('hex');
}

export function webhookIdHint(id: string): string {
  return id.slice(0, HINT_LENGTH);
}

export function randomExecutionId(): string {
  return EXECUTION_ID_PREFIX + randomBytes(16).toString('base64url');
}

/**
 * The execution id for a repeatable delivery: a digest of the webhook record (not the URL id, so
 * a regenerated URL starts a fresh key space) and the client's Idempotency-Key.
 */
export function idempotentExecutionId(webhookRecordId: string, idempotencyKey: string): string {
  const digest = createHash('sha256').update(`${webhookRecordId}\n${idempotencyKey}`, 'utf8').digest();
  return EXECUTION_ID_PREFIX + digest.subarray(0, 16).toString('base64url');
}

/**
 * The id of the automation run a webhook execution starts: a UUID (the runs table's key type)
 * derived from the execution id, so every attempt of the start asks for the same run.
 */
export function webhookRunId(executionId: string): string {
  const hex = createHash('sha256').update(`automation-run\n${executionId}`, 'utf8').digest('hex');
  // Shaped as a version-4-style UUID (version and variant bits set) so any UUID parser accepts it.
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function executionWorkflowId(executionId: string): string {
  return `webhook/${executionId}`;
}

/** `/v1/webhooks/wh_AbCdEf...` -> `/v1/webhooks/wh_AbCd…`, so access logs never hold a URL id. */
export function maskWebhookIds(path: string): string {
  return path.replace(/\/webhooks\/([^/?#]+)/g, (match, id: string) =>
    id === 'executions' ? match : `/webhooks/${webhookIdHint(id)}…`);
}

const RECORD_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Record ids (assistants, automations, webhook records) are UUIDs; anything else names nothing. */
export function isRecordId(value: string): boolean {
  return RECORD_ID_PATTERN.test(value);
}
