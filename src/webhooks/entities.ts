// Webhook records and their executions. A webhook belongs to an assistant or an automation; its
// URL id is a credential, so only its SHA-256 digest (for lookup) and an encrypted copy (to show
// the URL again to admins and the creator) are stored. Regeneration revokes the row and issues a
// new one, so the old URL stops resolving at once.
import { randomUUID } from 'node:crypto';
import { EntitySchema, OptionalProps } from '@mikro-orm/core';

export class Webhook {
  [OptionalProps]?: 'id' | 'assistantId' | 'automationId' | 'createdAt' | 'revokedAt';
  id: string = randomUUID();
  organizationId!: string;
  assistantId: string | null = null;
  automationId: string | null = null;
  /** SHA-256 hex of the URL id. */
  tokenHash!: string;
  /** The URL id, encrypted with the secret box. */
  tokenEncrypted!: string;
  /** The first characters of the URL id: enough to tell webhooks apart in logs and lists. */
  tokenHint!: string;
  createdBy!: string;
  createdAt: Date = new Date();
  revokedAt: Date | null = null;
}

export const EXECUTION_STATUSES = ['queued', 'running', 'success', 'failure'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

export class WebhookExecution {
  [OptionalProps]?:
    | 'assistantId' | 'automationId' | 'status' | 'output' | 'error' | 'runId' | 'model'
    | 'inputTokens' | 'outputTokens' | 'cost' | 'startedAt' | 'completedAt';
  /** The executionId of the acknowledgment; the workflow id is `webhook/<id>`. */
  id!: string;
  organizationId!: string;
  webhookId!: string;
  assistantId: string | null = null;
  automationId: string | null = null;
  status: ExecutionStatus = 'queued';
  output: string | null = null;
  error: string | null = null;
  /** The automation run this execution created, for automation webhooks. */
  runId: string | null = null;
  model: string | null = null;
  inputTokens: number | null = null;
  outputTokens: number | null = null;
  cost: number | null = null;
  receivedAt!: Date;
  startedAt: Date | null = null;
  completedAt: Date | null = null;
}

export const WebhookSchema = new EntitySchema<Webhook>({
  class: Webhook,
  tableName: 'webhooks',
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid' },
    assistantId: { type: 'uuid', nullable: true },
    automationId: { type: 'uuid', nullable: true },
    tokenHash: { type: 'string', length: 64, unique: true, hidden: true },
    tokenEncrypted: { type: 'text', hidden: true },
    tokenHint: { type: 'string', length: 16 },
    createdBy: { type: 'uuid' },
    createdAt: { type: 'datetime', length: 3 },
    revokedAt: { type: 'datetime', length: 3, nullable: true },
  },
});

export const WebhookExecutionSchema = new EntitySchema<WebhookExecution>({
  class: WebhookExecution,
  tableName: 'webhook_executions',
  properties: {
    id: { type: 'string', length: 64, primary: true },
    organizationId: { type: 'uuid' },
    webhookId: { type: 'uuid' },
    assistantId: { type: 'uuid', nullable: true },
    automationId: { type: 'uuid', nullable: true },
    status: { type: 'string', length: 16 },
    output: { type: 'text', nullable: true },
    error: { type: 'text', nullable: true },
    runId: { type: 'string', length: 100, nullable: true },
    model: { type: 'string', length: 200, nullable: true },
    inputTokens: { type: 'integer', nullable: true },
    outputTokens: { type: 'integer', nullable: true },
    cost: { type: 'double', nullable: true },
    receivedAt: { type: 'datetime', length: 3 },
    startedAt: { type: 'datetime', length: 3, nullable: true },
    completedAt: { type: 'datetime', length: 3, nullable: true },
  },
});
