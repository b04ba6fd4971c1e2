// Webhook records: issuing, resolving, listing and revoking the URLs that activate an assistant
// or an automation. The URL id is shown only to those allowed to see it (decrypted on demand);
// the lookup on the ingress path goes by its SHA-256 digest.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../config.js';
import type { SecretBox } from '../crypto/secrets.js';
import { Webhook } from './entities.js';
import { generateWebhookId, hashWebhookId, isWellFormedWebhookId, webhookIdHint } from './webhook-ids.js';

export type WebhookTarget = { kind: 'assistant'; assistantId: string } | { kind: 'automation'; automationId: string };

export interface IssueWebhookInput {
  organizationId: string;
  createdBy: string;
  target: WebhookTarget;
  now: Date;
}

/** Persists a new webhook (flushed by the caller) and returns it. */
export function issueWebhook(em: EntityManager, secrets: SecretBox, input: IssueWebhookInput): Webhook {
  const urlId = generateWebhookId();
  return em.create(Webhook, {
    organizationId: input.organizationId,
    assistantId: input.target.kind === 'assistant' ? input.target.assistantId : null,
    automationId: input.target.kind === 'automation' ? input.target.automationId : null,
    tokenHash: hashWebhookId(urlId),
    tokenEncrypted: secrets.encrypt(urlId),
    tokenHint: webhookIdHint(urlId),
    createdBy: input.createdBy,
    createdAt: input.now,
  });
}

/** What the ingress needs of the webhook a URL id designates. */
export type ActiveWebhook = Pick<Webhook, 'id' | 'organizationId' | 'assistantId' | 'automationId'>;

/**
 * The webhook a URL id designates, if it exists, is not revoked and its automation or assistant
 * has an active owner: the webhooks of what a disabled or removed user owns answer 404 until
 * someone takes ownership (nothing is revoked, so the same URLs work again then). On the ack
 * path of every webhook request: one query (primary-key joins), without entity hydration.
 */
export async function findActiveWebhook(em: EntityManager, urlId: string): Promise<ActiveWebhook | null> {
  if (!isWellFormedWebhookId(urlId)) return null;
  const rows = await em.getConnection().execute<{ id: string; organization_id: string; assistant_id: string | null; automation_id: string | null }[]>(
    `select w."id", w."organization_id", w."assistant_id", w."automation_id" from "webhooks" w
      left join "automations" au on au."id" = w."automation_id"
      left join "assistants" asst on asst."id" = w."assistant_id"
      join "users" u on u."id" = coalesce(au."owner_id", asst."owner_id") and u."organization_id" = w."organization_id" and u."status" = 'active'
      where w."token_hash" = ? and w."revoked_at" is null limit 1`,
    [hashWebhookId(urlId)],
  );
  const row = rows[0];
  return row ? { id: row.id, organizationId: row.organization_id, assistantId: row.assistant_id, automationId: row.automation_id } : null;
}

export async function activeAssistantWebhooks(em: EntityManager, organizationId: string, assistantIds: string[]): Promise<Map<string, Webhook>> {
  if (assistantIds.length === 0) return new Map();
  const webhooks = await em.find(Webhook, { organizationId, assistantId: { $in: assistantIds }, revokedAt: null });
  return new Map(webhooks.map((webhook) => [webhook.assistantId!, webhook]));
}

/** Revokes every active webhook of an assistant; the old URLs answer 404 from now on. */
export async function revokeAssistantWebhooks(em: EntityManager, organizationId: string, assistantId: string, now: Date): Promise<void> {
  await em.nativeUpdate(Webhook, { organizationId, assistantId, revokedAt: null }, { revokedAt: now });
}

/** Revokes every active webhook of an automation (it is being deleted); its URLs answer 404. */
export async function revokeAutomationWebhooks(em: EntityManager, organizationId: string, automationId: string, now: Date): Promise<number> {
  return em.nativeUpdate(Webhook, { organizationId, automationId, revokedAt: null }, { revokedAt: now });
}

export function webhookUrlId(secrets: SecretBox, webhook: Webhook): string {
  return secrets.decrypt(webhook.tokenEncrypted);
}

export function webhookUrl(config: Pick<Config, 'publicBaseUrl'>, secrets: SecretBox, webhook: Webhook): string {
  return `${config.publicBaseUrl}/webhooks/${webhookUrlId(secrets, webhook)}`;
}
