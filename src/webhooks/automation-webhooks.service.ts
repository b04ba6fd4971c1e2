// Webhooks of automations: an automation may have several (one per sender, each revocable on its
// own). Only the automation's creator, admins and the owner manage them and see their URLs.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppDeps } from '../runtime-deps.js';
import { canManageAutomation } from '../automations/access.js';
import { Automation } from '../automations/entities.js';
import { forbidden, notFound } from '../errors.js';
import type { Caller } from '../identity/caller.js';
import { assertQuota } from '../quotas/quota.js';
import { Webhook } from './entities.js';
import { isRecordId } from './webhook-ids.js';
import { issueWebhook, webhookUrl } from './webhooks.service.js';

type Deps = Pick<AppDeps, 'orm' | 'secrets' | 'config' | 'clock'>;

export interface AutomationWebhookView {
  id: string;
  automationId: string;
  url: string;
  createdAt: string;
}

export async function createAutomationWebhook(deps: Deps, caller: Caller, automationId: string): Promise<AutomationWebhookView> {
  const em = deps.orm.em.fork();
  const automation = await findManageableAutomation(em, caller, automationId);
  const webhook = await em.transactional(async (tx) => {
    await assertQuota(tx, deps.config, 'webhooks', caller);
    return issueWebhook(tx, deps.secrets, {
      organizationId: caller.organizationId,
      createdBy: caller.userId,
      target: { kind: 'automation', automationId: automation.id },
      now: deps.clock.now(),
    });
  });
  return toView(deps, webhook);
}

export async function listAutomationWebhooks(deps: Deps, caller: Caller, automationId: string): Promise<{ webhooks: AutomationWebhookView[]; total: number }> {
  const em = deps.orm.em.fork();
  const automation = await findManageableAutomation(em, caller, automationId);
  const webhooks = await em.find(
    Webhook,
    { organizationId: caller.organizationId, automationId: automation.id, revokedAt: null },
    { orderBy: { createdAt: 'desc', id: 'asc' } },
  );
  return { webhooks: webhooks.map((webhook) => toView(deps, webhook)), total: webhooks.length };
}

/** Revokes one webhook of the automation; its URL answers 404 from the moment this returns. */
export async function revokeAutomationWebhook(deps: Deps, caller: Caller, automationId: string, webhookId: string): Promise<void> {
  const em = deps.orm.em.fork();
  const automation = await findManageableAutomation(em, caller, automationId);
  const revoked = isRecordId(webhookId)
    ? await em.nativeUpdate(
        Webhook,
        { id: webhookId, organizationId: caller.organizationId, automationId: automation.id, revokedAt: null },
        { revokedAt: deps.clock.now() },
      )
    : 0;
  if (revoked === 0) throw notFound('Webhook');
}

async function findManageableAutomation(em: EntityManager, caller: Caller, automationId: string): Promise<Automation> {
  const automation = isRecordId(automationId)
    ? await em.findOne(Automation, { id: automationId, organizationId: caller.organizationId })
    : null;
  if (!automation) throw notFound('Automation');
  if (!canManageAutomation(automation, caller)) {
    throw forbidden('Only the creator of an automation, admins and the owner manage its webhooks');
  }
  return automation;
}

function toView(deps: Deps, webhook: Webhook): AutomationWebhookView {
  return {
    id: webhook.id,
    automationId: webhook.automationId!,
    url: webhookUrl(deps.config, deps.secrets, webhook),
    createdAt: webhook.createdAt.toISOString(),
  };
}
