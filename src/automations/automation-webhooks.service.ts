// Webhooks of automations: an automation may have several (one per sender, each revocable on its
// own). A webhook's body becomes the run's user message, acting with the owner's connections and
// budget, so its URLs are run content: only the automation's owner creates, lists and revokes
// them (admins take ownership first), and each change is audited.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppDeps } from '../runtime-deps.js';
import { recordAuditEvent } from '../audit/audit.service.js';
import { forbidden, notFound } from '../errors.js';
import type { Caller } from '../identity/caller.js';
import { assertQuota } from '../quotas/quota.js';
import { Webhook } from '../webhooks/entities.js';
import { isRecordId } from '../webhooks/webhook-ids.js';
import { issueWebhook, webhookUrl } from '../webhooks/webhooks.service.js';
import { Automation } from './entities.js';

type Deps = Pick<AppDeps, 'orm' | 'secrets' | 'config' | 'clock'>;

/** The request id for audit records, when the caller has one. */
export interface AuditContext {
  requestId?: string | undefined;
}

export interface AutomationWebhookView {
  id: string;
  automationId: string;
  url: string;
  createdAt: string;
}

export async function createAutomationWebhook(deps: Deps, caller: Caller, automationId: string, context: AuditContext = {}): Promise<AutomationWebhookView> {
  const em = deps.orm.em.fork();
  const automation = await findOwnedAutomation(em, caller, automationId);
  const webhook = await em.transactional(async (tx) => {
    await assertQuota(tx, deps.config, 'webhooks', caller);
    const issued = issueWebhook(tx, deps.secrets, {
      organizationId: caller.organizationId,
      createdBy: caller.userId,
      target: { kind: 'automation', automationId: automation.id },
      now: deps.clock.now(),
    });
    audit(tx, deps, caller, 'automation.webhook_created', automation.id, issued.id, context);
    return issued;
  });
  return toView(deps, webhook);
}

export async function listAutomationWebhooks(deps: Deps, caller: Caller, automationId: string): Promise<{ webhooks: AutomationWebhookView[]; total: number }> {
  const em = deps.orm.em.fork();
  const automation = await findOwnedAutomation(em, caller, automationId);
  const webhooks = await em.find(
    Webhook,
    { organizationId: caller.organizationId, automationId: automation.id, revokedAt: null },
    { orderBy: { createdAt: 'desc', id: 'asc' } },
  );
  return { webhooks: webhooks.map((webhook) => toView(deps, webhook)), total: webhooks.length };
}

/** Revokes one webhook of the automation; its URL answers 404 from the moment this returns. */
export async function revokeAutomationWebhook(deps: Deps, caller: Caller, automationId: string, webhookId: string, context: AuditContext = {}): Promise<void> {
  const em = deps.orm.em.fork();
  const automation = await findOwnedAutomation(em, caller, automationId);
  const revoked = isRecordId(webhookId)
    ? await em.nativeUpdate(
        Webhook,
        { id: webhookId, organizationId: caller.organizationId, automationId: automation.id, revokedAt: null },
        { revokedAt: deps.clock.now() },
      )
    : 0;
  if (revoked === 0) throw notFound('Webhook');
  audit(em, deps, caller, 'automation.webhook_revoked', automation.id, webhookId, context);
  await em.flush();
}

async function findOwnedAutomation(em: EntityManager, caller: Caller, automationId: string): Promise<Automation> {
  const automation = isRecordId(automationId)
    ? await em.findOne(Automation, { id: automationId, organizationId: caller.organizationId })
    : null;
  if (!automation) throw notFound('Automation');
  if (automation.ownerId !== caller.userId) {
    throw forbidden("Only the automation's owner manages its webhooks (what they send becomes its runs' input); take ownership first");
  }
  return automation;
}

function audit(em: EntityManager, deps: Deps, caller: Caller, action: string, automationId: string, webhookId: string, context: AuditContext): void {
  recordAuditEvent(em, {
    organizationId: caller.organizationId,
    actor: caller,
    action,
    target: { type: 'automation', id: automationId },
    metadata: { webhookId },
    requestId: context.requestId,
    at: deps.clock.now(),
  });
}

function toView(deps: Deps, webhook: Webhook): AutomationWebhookView {
  return {
    id: webhook.id,
    automationId: webhook.automationId!,
    url: webhookUrl(deps.config, deps.secrets, webhook),
    createdAt: webhook.createdAt.toISOString(),
  };
}
